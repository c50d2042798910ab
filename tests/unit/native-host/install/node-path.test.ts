import { describe, expect, it } from 'vitest';
import { stableNodePath } from '../../../../native-host/install/node-path';

const links: Record<string, string> = {
  '/opt/homebrew/bin/node': '/opt/homebrew/Cellar/node@20/20.19.0/bin/node',
  '/opt/homebrew/Cellar/node@20/20.19.0/bin/node': '/opt/homebrew/Cellar/node@20/20.19.0/bin/node',
  '/usr/local/bin/node': '/usr/local/bin/node',
  '/home/ada/.nvm/versions/node/v20.19.0/bin/node': '/home/ada/.nvm/versions/node/v20.19.0/bin/node',
};
const realpath = (path: string): string | undefined => links[path];

describe('stableNodePath', () => {
  it('prefers a PATH link to the same binary over a versioned Homebrew Cellar path that an upgrade deletes', () => {
    const cellar = '/opt/homebrew/Cellar/node@20/20.19.0/bin/node';
    expect(stableNodePath(cellar, '/usr/bin:/opt/homebrew/bin:/usr/local/bin', 'darwin', realpath)).toBe('/opt/homebrew/bin/node');
  });

  it('keeps execPath when its folder is already on PATH (nvm), or when nothing on PATH is the same binary', () => {
    const nvm = '/home/ada/.nvm/versions/node/v20.19.0/bin/node';
    expect(stableNodePath(nvm, '/home/ada/.nvm/versions/node/v20.19.0/bin:/usr/local/bin', 'linux', realpath)).toBe(nvm);
    const cellar = '/opt/homebrew/Cellar/node@20/20.19.0/bin/node';
    expect(stableNodePath(cellar, '/usr/local/bin:relative/bin', 'darwin', realpath)).toBe(cellar);
    expect(stableNodePath(cellar, undefined, 'darwin', realpath)).toBe(cellar);
  });
});

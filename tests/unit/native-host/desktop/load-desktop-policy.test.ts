import { describe, expect, it } from 'vitest';
import { loadDesktopPolicy } from '../../../../native-host/desktop/load-desktop-policy';

const file = (text: string) => () => Promise.resolve(text);

describe('loadDesktopPolicy', () => {
  it('uses the defaults when there is no file', async () => {
    const missing = () => Promise.reject(Object.assign(new Error('no'), { code: 'ENOENT' }));
    const policy = await loadDesktopPolicy('/x/desktop-policy.json', missing);
    expect(policy.blockedCommands.length).toBeGreaterThan(3);
  });

  it('keeps defaults for the lists a file leaves out', async () => {
    const policy = await loadDesktopPolicy('/p.json', file('{"blockedUrls":["*.example.com"]}'));
    expect(policy.blockedUrls).toEqual(['*.example.com']);
    expect(policy.blockedApps.length).toBeGreaterThan(0);
  });

  it('names the file and the fix for bad JSON, a wrong shape and a broken pattern', async () => {
    await expect(loadDesktopPolicy('/p.json', file('{oops'))).rejects.toThrow(/\/p\.json is not valid JSON; fix it or delete it/);
    await expect(loadDesktopPolicy('/p.json', file('{"blockedApps":"Settings"}'))).rejects.toThrow(/\/p\.json is invalid \(blockedApps/);
    await expect(loadDesktopPolicy('/p.json', file('{"blockedApps":["/(unclosed/"]}'))).rejects.toThrow(/bad pattern/);
  });
});

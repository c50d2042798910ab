import { describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../../../shared/constants';
import { checkManifest, hostManifest, manifestText } from '../../../../native-host/install/host-manifest';

const good = hostManifest('/home/ada/.local/share/deputy/deputy-host');
const text = (value: unknown): string => JSON.stringify(value);

describe('checkManifest', () => {
  it('accepts what install writes', () => {
    expect(checkManifest(manifestText(good), 'linux')).toEqual({ ok: true, manifest: good, problems: [] });
  });

  it('names each problem that would stop Chrome from connecting', () => {
    expect(checkManifest('{"name": ', 'linux')).toMatchObject({ ok: false, problems: [expect.stringMatching(/not valid JSON/)] });
    expect(checkManifest(text({ name: NATIVE_HOST_NAME }), 'linux')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/bad or missing: path, type, allowed_origins/)],
    });
    expect(checkManifest(text({ ...good, name: 'dev.deputy.other' }), 'linux').problems).toEqual([
      expect.stringMatching(/name is "dev.deputy.other"/),
    ]);
    expect(checkManifest(text({ ...good, allowed_origins: ['chrome-extension://aaaa/'] }), 'linux').problems).toEqual([
      expect.stringContaining(`does not list ${EXTENSION_ORIGIN}`),
    ]);
    expect(checkManifest(text({ ...good, type: 'socket' }), 'linux').problems).toEqual([expect.stringMatching(/must be "stdio"/)]);
    expect(checkManifest(text({ ...good, path: 'deputy-host' }), 'darwin').problems).toEqual([expect.stringMatching(/not absolute/)]);
    // Windows resolves a relative path against the manifest's folder.
    expect(checkManifest(text({ ...good, path: 'deputy-host.bat' }), 'win32').problems).toEqual([]);
  });
});

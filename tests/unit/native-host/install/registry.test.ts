import { describe, expect, it } from 'vitest';
import { parseRegQuery, readRegistryDefault } from '../../../../native-host/install/registry';
import { fakeReg } from './fakes';

describe('registry', () => {
  it('reads the default value from reg query output, whatever "(Default)" is called in the system language', () => {
    const key = 'HKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.deputy.host';
    expect(parseRegQuery(`\r\n${key}\r\n    (Default)    REG_SZ    C:\\Users\\a b\\x.json\r\n\r\n`)).toBe('C:\\Users\\a b\\x.json');
    expect(parseRegQuery(`\r\n${key}\r\n    (Standard)    REG_SZ    C:\\x.json  \r\n`)).toBe('C:\\x.json');
    expect(parseRegQuery(`\r\n${key}\r\n    (Default)    REG_SZ    \r\n`)).toBeUndefined();
  });

  it('says undefined for a key that does not exist', async () => {
    expect(await readRegistryDefault(fakeReg().run, 'HKCU\\Software\\Nope')).toBeUndefined();
  });
});

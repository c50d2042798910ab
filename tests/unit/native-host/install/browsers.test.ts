import { describe, expect, it } from 'vitest';
import { parseBrowserList } from '../../../../native-host/install/browsers';
import { UsageError } from '../../../../native-host/cli/usage-error';

describe('parseBrowserList', () => {
  it('reads a comma-separated list, case-insensitively, without duplicates', () => {
    expect(parseBrowserList('Chrome, brave,chrome')).toEqual(['chrome', 'brave']);
    expect(parseBrowserList('all')).toEqual(['chrome', 'chromium', 'brave', 'edge']);
  });

  it('rejects unknown names with the list of known ones', () => {
    expect(() => parseBrowserList('chrome,firefox')).toThrow(UsageError);
    expect(() => parseBrowserList('firefox')).toThrow(/unknown browser "firefox"; choose from chrome, chromium, brave, edge/);
    expect(() => parseBrowserList(' , ')).toThrow(/at least one/);
  });
});

import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../../../extension/background/stores/settings-store';
import { migrateSettings } from '../../../../../extension/background/stores/settings-migrations';
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '../../../../../shared/protocol';
import { memoryStore } from '../support/memory-store';

/** Settings as the version before SETTINGS_VERSION 2 saved them: every field, no version, the whole page by default. */
function savedByVersion1(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const { version: _version, ...rest } = DEFAULT_SETTINGS;
  return { ...rest, pageView: 'full', stepBudget: 12, allowedSites: ['shop.example'], ...fields };
}

async function storeHolding(saved: unknown): Promise<{ settings: SettingsStore; stored: () => Record<string, unknown> }> {
  const store = memoryStore();
  if (saved !== undefined) await store.set('settings', saved);
  return { settings: new SettingsStore(store), stored: () => JSON.parse(store.data.get('settings') ?? '{}') as Record<string, unknown> };
}

describe('saved settings from earlier versions', () => {
  it('moves the old default page view to the diff view, and keeps every other setting', async () => {
    const { settings } = await storeHolding(savedByVersion1());
    const read = await settings.get();
    expect(read.pageView).toBe('diff');
    expect(read).toMatchObject({ stepBudget: 12, allowedSites: ['shop.example'], version: SETTINGS_VERSION });
  });

  it('saves a change under the current version: a migrated page view stays diff, a later choice of the whole page stays', async () => {
    const { settings, stored } = await storeHolding(savedByVersion1());
    await settings.update({ stepBudget: 15 });
    expect(stored()).toMatchObject({ version: SETTINGS_VERSION, pageView: 'diff', stepBudget: 15 });
    // The user now picks the whole page: that is a choice, kept through reads and later saves of other fields.
    await settings.update({ pageView: 'full' });
    expect((await settings.get()).pageView).toBe('full');
    await settings.update({ stepBudget: 20 });
    expect(stored()).toMatchObject({ version: SETTINGS_VERSION, pageView: 'full', stepBudget: 20 });
    expect((await settings.get()).pageView).toBe('full');
  });

  it('saves the current version even when a change names an older one', async () => {
    const { settings, stored } = await storeHolding(undefined);
    await settings.update({ pageView: 'full', version: 1 });
    expect(stored().version).toBe(SETTINGS_VERSION);
    expect((await settings.get()).pageView).toBe('full');
  });

  it('gives a fresh install the defaults, the diff view among them', async () => {
    const { settings } = await storeHolding(undefined);
    expect(await settings.get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.pageView).toBe('diff');
  });

  // Every saved version against every saved page view: only a 'full' saved before version 2 (or with no readable
  // version, which only version 1 wrote) is the old default; everything else is read as it was saved.
  const versions: [string, unknown][] = [
    ['no version', undefined],
    ['version 1', 1],
    ['a version that is not a number', 'two'],
    ['version 0', 0],
    ['the current version', SETTINGS_VERSION],
    ['a later version', SETTINGS_VERSION + 1],
  ];
  const views: [string, unknown, string][] = [
    ['full', 'full', 'full'],
    ['diff', 'diff', 'diff'],
    ['no page view', undefined, 'diff'],
  ];
  for (const [versionName, version] of versions) {
    for (const [viewName, pageView, asSaved] of views) {
      const older = version === undefined || version === 1 || version === 'two' || version === 0;
      const expected = older && asSaved === 'full' ? 'diff' : asSaved;
      it(`reads ${viewName} saved with ${versionName} as ${expected}`, async () => {
        const saved: Record<string, unknown> = savedByVersion1();
        delete saved.pageView;
        if (pageView !== undefined) saved.pageView = pageView;
        if (version !== undefined) saved.version = version;
        const { settings } = await storeHolding(saved);
        expect((await settings.get()).pageView).toBe(expected);
        const migrated = migrateSettings(saved);
        expect(migrated.version).toBe(older ? SETTINGS_VERSION : version);
      });
    }
  }
});

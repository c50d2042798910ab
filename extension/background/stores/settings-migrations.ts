import { SETTINGS_VERSION } from '../../../shared/protocol';

/**
 * One step of the saved settings from version `from` to the next. Each step says what the older version stored that
 * no longer means what it did.
 */
const STEPS: Record<number, (saved: Record<string, unknown>) => Record<string, unknown>> = {
  // Version 1 had the whole page as its default page view, and the settings form stored pageView on every save, so
  // a saved 'full' is the old default, not a choice: it moves to the diff view. A user who picks the whole page again
  // saves it under version 2, where it stays.
  1: (saved) => (saved.pageView === 'full' ? { ...saved, pageView: 'diff' } : saved),
};

/**
 * Saved settings as any earlier version wrote them, brought up to SETTINGS_VERSION: each step from the version they
 * were saved under (1 when none is saved) runs in turn. Settings from a newer version than this one are left as they
 * are, for the schema to read what it knows of them.
 */
export function migrateSettings(saved: Record<string, unknown>): Record<string, unknown> {
  const from = typeof saved.version === 'number' && Number.isInteger(saved.version) && saved.version >= 1 ? saved.version : 1;
  if (from >= SETTINGS_VERSION) return saved;
  let settings = saved;
  for (let version = from; version < SETTINGS_VERSION; version += 1) settings = STEPS[version]?.(settings) ?? settings;
  return { ...settings, version: SETTINGS_VERSION };
}

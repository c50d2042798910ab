/**
 * The version of the saved settings' shape and defaults. Saved settings of an earlier version are brought up to date
 * when read (extension/background/stores/settings-migrations.ts): 1 (no version saved) is before the diff page view
 * became the default, when every save stored pageView 'full' whether or not the user chose it.
 */
export const SETTINGS_VERSION = 2;

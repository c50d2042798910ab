import { z } from 'zod';
import { AppError, describeZodError } from '../../../shared/errors';
import { DEFAULT_SETTINGS, SETTINGS_VERSION, Settings } from '../../../shared/protocol';
import type { Store } from '../../platform/storage';
import { migrateSettings } from './settings-migrations';

const KEY = 'settings';

export type PublicSettings = Settings & { apiKeySet: boolean };

/** A change as callers write it: fields left out keep their value, and provider defaults fill in on parse. */
export type SettingsChange = Partial<z.input<typeof Settings>>;

/**
 * The user's settings in chrome.storage.local. The API key is kept there and handed only to the provider client; what
 * the side panel reads has the key blanked and a flag saying whether one is set.
 */
export class SettingsStore {
  constructor(private readonly store: Store) {}

  async get(): Promise<Settings> {
    const saved = await this.store.get(KEY, z.unknown());
    // Settings saved by an earlier version are read as that version meant them (see settings-migrations).
    const merged = Settings.safeParse({ ...DEFAULT_SETTINGS, ...(isObject(saved) ? migrateSettings(saved) : {}) });
    return merged.success ? merged.data : DEFAULT_SETTINGS;
  }

  async getPublic(): Promise<PublicSettings> {
    return toPublic(await this.get());
  }

  /**
   * Merges a change into the settings. A provider change without an API key keeps the key already stored, so the
   * panel never has to hold the real key to save other fields.
   */
  async update(change: SettingsChange): Promise<PublicSettings> {
    const current = await this.get();
    // Saved under this version whatever the change says, so what the user chooses now is never migrated again.
    const next: Record<string, unknown> = { ...current, ...change, version: SETTINGS_VERSION };
    if (change.provider && change.provider.apiKey === undefined && current.provider?.apiKey) {
      next.provider = { ...change.provider, apiKey: current.provider.apiKey };
    }
    const parsed = Settings.safeParse(next);
    if (!parsed.success) throw new AppError('invalid_params', `These settings cannot be saved: ${describeZodError(parsed.error)}`);
    await this.store.set(KEY, parsed.data);
    return toPublic(parsed.data);
  }
}

function toPublic(settings: Settings): PublicSettings {
  const apiKeySet = Boolean(settings.provider?.apiKey);
  const provider = settings.provider ? { ...settings.provider, apiKey: '' } : null;
  return { ...settings, provider, apiKeySet };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

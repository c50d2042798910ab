import { AppError } from '../../../shared/errors';
import type { Settings } from '../../../shared/protocol';
import type { SettingsStore } from './settings-store';

/**
 * The model saved in Settings, key included, for a run the host carries out (desktop, shell): the background hands it
 * to the host over native messaging, so the panel never holds the key. Without one, the error says where to set it.
 */
/** The cost cap of Settings for a run the host carries out, as its parameters carry it (none: nothing). */
export async function savedCostCap(settings: Pick<SettingsStore, 'get'>): Promise<{ maxCostUsd?: number }> {
  const cap = (await settings.get()).maxCostUsd;
  return cap === null ? {} : { maxCostUsd: cap };
}

export async function savedProvider(settings: Pick<SettingsStore, 'get'>, what: string): Promise<NonNullable<Settings['provider']>> {
  const saved = await settings.get();
  if (!saved.provider) throw new AppError('bad_config', `Choose a model provider in Settings first: ${what} use the same model as web tasks.`);
  return saved.provider;
}

import type { HostConnection } from './host-connection';
import type { SettingsStore } from '../stores/settings-store';
import type { UiHandlers } from '../ui/ui-server';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Drafting may take two model calls (one retry after an invalid draft). */
const DESCRIBE_TIMEOUT_MS = 180_000;

/** A definition that turns research off needs no model; every other start (and a resume, which keeps its saved definition) may. */
function researchOff(config: unknown): boolean {
  return isObject(config) && isObject(config.research) && config.research.enabled === false;
}

/**
 * The side panel's `loop.start` and `loop.describe`, with the model saved in Settings (key included) added for the research step when a
 * loop is stuck, and handed only to the host, which keeps it in memory. Whatever provider the panel sends is dropped,
 * as for desktop tasks, so the panel never needs the key.
 */
export function createLoopUiHandlers(deps: { host: Pick<HostConnection, 'call'>; settings: Pick<SettingsStore, 'get'> }): Pick<UiHandlers, 'loop.start' | 'loop.describe'> {
  return {
    // Drafting a loop from words asks the same saved model.
    'loop.describe': async ({ provider: _fromPanel, ...params }) => {
      const { provider } = await deps.settings.get();
      return deps.host.call('loop.describe', { ...params, ...(provider ? { provider } : {}) }, { timeoutMs: DESCRIBE_TIMEOUT_MS });
    },
    'loop.start': async ({ provider: _fromPanel, ...params }) => {
      const { provider } = await deps.settings.get();
      return deps.host.call('loop.start', { ...params, ...(provider && !researchOff(params.config) ? { provider } : {}) });
    },
  };
}

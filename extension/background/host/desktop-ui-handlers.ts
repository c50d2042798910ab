import type { DesktopRunLog } from './desktop-run-log';
import type { HostConnection } from './host-connection';
import { savedCostCap, savedProvider } from '../stores/saved-provider';
import type { SettingsStore } from '../stores/settings-store';
import type { UiHandlers } from '../ui/ui-server';

type DesktopUiHandlers = Pick<UiHandlers, 'desktop.run' | 'desktop.answer' | 'desktop.stop' | 'desktop.current'>;

/** How long the host may take to check the display and start a run (the first call starts its desktop worker). */
const RUN_TIMEOUT_MS = 60_000;

/**
 * The side panel's desktop-task methods. `desktop.run` takes the model from the user's saved settings, key included,
 * and hands it only to the host over native messaging: whatever provider the panel sends is ignored, so the panel
 * never needs the key. Answers and stops go to the host; the run log then drops the answered card at once.
 */
export function createDesktopUiHandlers(deps: { host: Pick<HostConnection, 'call'>; settings: Pick<SettingsStore, 'get'>; log: DesktopRunLog }): DesktopUiHandlers {
  const { host, log } = deps;
  return {
    'desktop.run': async (params) => {
      const provider = await savedProvider(deps.settings, 'desktop tasks (with a model that reads images)');
      // A task going on after its cap runs under the new cap the user set beside it; any other under the saved cap.
      const cap = params.resumeRunDir !== undefined && params.maxCostUsd !== undefined ? { maxCostUsd: params.maxCostUsd } : await savedCostCap(deps.settings);
      const { maxCostUsd: _fromPanel, ...rest } = params;
      const started = await host.call('desktop.run', { ...rest, provider, ...cap }, { timeoutMs: RUN_TIMEOUT_MS });
      await log.begin({ runId: started.runId, runDir: started.runDir, task: params.task, mode: params.mode ?? 'ask' });
      return started;
    },
    'desktop.answer': async (params) => {
      const reply = await host.call('desktop.answer', params);
      // Refused means the run no longer waits on that card (already answered elsewhere, or stopped): drop it too.
      await log.answered(params.runId, params.id);
      return reply;
    },
    'desktop.stop': async (params) => {
      const reply = await host.call('desktop.stop', params);
      if (reply.stopped) await log.stopRequested(params.runId);
      return reply;
    },
    'desktop.current': () => log.current(),
  };
}

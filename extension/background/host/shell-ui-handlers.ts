import type { HostConnection } from './host-connection';
import { savedCostCap, savedProvider } from '../stores/saved-provider';
import type { SettingsStore } from '../stores/settings-store';
import type { ShellRunLog } from './shell-run-log';
import type { UiHandlers } from '../ui/ui-server';

type ShellUiHandlers = Pick<UiHandlers, 'shell.run' | 'shell.resume' | 'shell.answer' | 'shell.stop' | 'shell.kill' | 'shell.current'>;

/** How long the host may take to start a session (it answers before connecting: the connection reports through events). */
const RUN_TIMEOUT_MS = 30_000;

/**
 * The side panel's shell methods. `shell.run` and `shell.resume` take the model from the user's saved settings, key
 * included, and hand it only to the host: whatever provider the panel sends is ignored. Answers (a password among
 * them) go to the host and are not kept; the run log then drops the answered card at once.
 */
export function createShellUiHandlers(deps: { host: Pick<HostConnection, 'call'>; settings: Pick<SettingsStore, 'get'>; log: ShellRunLog }): ShellUiHandlers {
  const { host, log } = deps;
  const provider = (): Promise<unknown> => savedProvider(deps.settings, 'shell tasks');
  return {
    'shell.run': async (params) => {
      const started = await host.call('shell.run', { ...params, provider: await provider(), ...(await savedCostCap(deps.settings)) }, { timeoutMs: RUN_TIMEOUT_MS });
      const target = params.target.kind === 'local' ? 'this machine' : params.target.destination;
      await log.begin({ sessionId: started.sessionId, sessionDir: started.sessionDir, objective: params.objective, target, mode: params.mode ?? 'ask' });
      return started;
    },
    'shell.resume': async (params) => {
      const started = await host.call('shell.resume', { sessionId: params.sessionId, provider: await provider(), ...(await savedCostCap(deps.settings)) }, { timeoutMs: RUN_TIMEOUT_MS });
      await log.begin({ sessionId: started.sessionId, sessionDir: started.sessionDir, objective: '', target: '', mode: 'ask' });
      return started;
    },
    'shell.answer': async (params) => {
      const reply = await host.call('shell.answer', params);
      await log.answered(params.sessionId, params.id);
      return reply;
    },
    'shell.stop': async (params) => {
      const reply = await host.call('shell.stop', params);
      if (reply.stopped) await log.stopRequested(params.sessionId);
      return reply;
    },
    'shell.kill': async (params) => {
      const reply = await host.call('shell.kill', params);
      await log.processChanged(params.sessionId, reply.process);
      return reply;
    },
    'shell.current': () => log.current(),
  };
}

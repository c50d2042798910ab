import { AppError } from '../../../shared/errors';
import type { Launch } from '../../../shared/protocol';
import type { ChatDriver } from '../chat/chat-driver';
import { createChatUiHandlers } from '../chat/chat-ui-handlers';
import type { createDesktopUiHandlers } from '../host/desktop-ui-handlers';
import type { createFormHandlers } from '../page/form-wiring';
import type { HostConnection } from '../host/host-connection';
import { createHostPassthroughHandlers } from '../host/host-passthrough';
import type { LaunchStore } from '../stores/launch-store';
import type { LoopEventLog } from '../host/loop-event-log';
import type { createLoopUiHandlers } from '../host/loop-ui-handlers';
import type { McpServices } from '../mcp/mcp-wiring';
import type { PageAgent } from '../page/page-agent';
import { createPageUiHandlers } from '../page/page-ui-handlers';
import type { createShellUiHandlers } from '../host/shell-ui-handlers';
import type { createTaskUiHandlers } from '../tasks/task-ui-handlers';
import type { RoutineUiHandlers } from '../routines/routine-ui-handlers';
import { pingFrames, type FramePorts } from '../frames/content-frames';
import type { UiHandlers } from './ui-server';

export interface UiHandlerDeps {
  host: HostConnection;
  launches: LaunchStore;
  /** Tells open panels about a launch left for their tab. */
  announce: (launch: Launch) => void;
  loopLog: Pick<LoopEventLog, 'events'>;
  frames: FramePorts;
  chat: ChatDriver;
  page: PageAgent;
  tasks: ReturnType<typeof createTaskUiHandlers>;
  routines: RoutineUiHandlers;
  desktop: ReturnType<typeof createDesktopUiHandlers>;
  shell: ReturnType<typeof createShellUiHandlers>;
  mcp: McpServices['ui'];
  loop: ReturnType<typeof createLoopUiHandlers>;
  forms: ReturnType<typeof createFormHandlers>;
}

export function createUiHandlers({ host, launches, announce, loopLog, frames, chat, page, tasks, routines, desktop, shell, mcp, loop, forms }: UiHandlerDeps): UiHandlers {
  return {
    'host.status': () => Promise.resolve(host.status),
    'host.reconnect': () => {
      host.reconnectNow();
      return Promise.resolve(host.status);
    },
    'host.ping': async ({ echoBytes }) => {
      const started = performance.now();
      const echo = echoBytes === undefined ? undefined : 'x'.repeat(echoBytes);
      const reply = await host.call('ping', echo === undefined ? {} : { echo });
      return {
        roundTripMs: performance.now() - started,
        hostVersion: host.status.hostVersion ?? 'unknown',
        echoedBytes: reply.echo?.length ?? 0,
      };
    },
    'content.ping': ({ tabId }) => pingFrames(frames, tabId),
    'launch.get': async ({ tabId }) => (await launches.get(tabId)) ?? null,
    'launch.clear': async ({ tabId }) => {
      await launches.clear(tabId);
      return {};
    },
    'launch.openTask': async ({ tabId, taskId }) => {
      const record = await tasks['task.get']({ taskId });
      if (!record) throw new AppError('not_found', 'That task is no longer in the history.');
      const launch = { tabId, flow: record.flow, taskId, at: Date.now() };
      await launches.set(launch);
      announce(launch);
      return {};
    },
    ...createChatUiHandlers(chat),
    ...createPageUiHandlers(page),
    ...tasks,
    ...routines,
    ...createHostPassthroughHandlers(host),
    'loop.log': async ({ loopId }) => ({ events: await loopLog.events(loopId) }),
    // After the plain forwarding: these add the saved model to desktop.run, shell.run and loop.start and keep the
    // panel's run logs.
    ...desktop,
    ...shell,
    ...mcp,
    ...loop,
    ...forms,
  };
}

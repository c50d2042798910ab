import type { HostMethods } from '../../shared/protocol';
import { desktopMethods } from '../../shared/protocol/desktop-protocol';
import { shellMethods } from '../../shared/protocol/shell-protocol';
import type { DesktopService } from '../desktop/desktop-service';
import { loopHandlers } from '../loop/loop-handlers';
import type { LoopManager } from '../loop/loop-manager';
import { mcpHandlers } from '../mcp/mcp-handlers';
import type { McpBroker } from '../mcp/mcp-broker';
import { defaultSchedulesFile } from '../schedules/schedules-file';
import { schedulesHandlers } from '../schedules/schedules-handlers';
import type { ShellHostOptions } from '../shell/shell-handlers';
import { helloResult } from './hello-result';
import { lazyHandlers } from './lazy-handlers';
import type { Handlers } from './router';

export interface HostInfo {
  version: string;
  platform: string;
  pid: number;
  now: () => number;
  /** Desktop control; its methods answer "unavailable" when absent. */
  desktop?: DesktopService;
  /** Fix loops; their methods answer "unavailable" when absent. */
  loops?: LoopManager;
  /** Shell tasks; their methods answer "unavailable" when absent. */
  shell?: ShellHostOptions;
  /** The MCP bridge: connected agents and the user's MCP servers; their methods answer "unavailable" when absent. */
  mcp?: McpBroker;
  /** Where the extension's schedules are kept for `deputy schedules run-due` (default: schedules.json in the state folder). */
  schedulesFile?: string;
  /** Told who is on the other end (the extension, the CLI, a test) once it says hello. */
  onHello?: (client: 'extension' | 'cli' | 'test') => void;
}

/** The host's built-in methods. Feature modules (desktop, fix loop, shell) add theirs beside these. */
export function hostHandlers(info: HostInfo): Handlers<HostMethods> {
  return {
    hello: (params) => {
      info.onHello?.(params.client);
      return helloResult({ version: info.version, platform: info.platform, pid: info.pid, desktop: info.desktop !== undefined, shell: info.shell !== undefined, mcp: info.mcp !== undefined }, params);
    },
    ping: (params) => (params.echo === undefined ? { time: info.now() } : { time: info.now(), echo: params.echo }),
    // Desktop and shell code (the agents, the SSH client, the screenshot encoder) loads on the first such call.
    ...lazyHandlers(methodNames(desktopMethods), async () => (await import('../desktop/desktop-handlers')).desktopHandlers(info.desktop)),
    ...loopHandlers(info.loops),
    ...lazyHandlers(methodNames(shellMethods), async () => (await import('../shell/shell-handlers')).shellHandlers(info.shell)),
    ...mcpHandlers(info.mcp),
    ...schedulesHandlers({ file: info.schedulesFile ?? defaultSchedulesFile(), now: info.now }),
  };
}

const methodNames = <M extends object>(methods: M): Array<keyof M & string> => Object.keys(methods) as Array<keyof M & string>;

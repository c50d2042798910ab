import { userInfo } from 'node:os';
import { lazyProvider as createProvider } from '../../shared/agent/providers/lazy-provider';
import { AppError } from '../../shared/errors';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { ProcessRegistry } from '../host/process-registry';
import type { Logger } from '../log/logger';
import type { BridgeSession } from '../mcp/bridge-server';
import type { McpServerPool } from '../mcp/server-pool';
import type { McpClientInfo } from '../../shared/protocol';
import { currentPathEnv } from '../paths';
import { ShellRuns, type ShellRunsDeps } from './agent/shell-runs';
import { createValidator } from './command-validator';
import { shellPaths } from './shell-paths';

type ShellMethodNames = 'shell.run' | 'shell.resume' | 'shell.answer' | 'shell.stop' | 'shell.kill' | 'shell.output' | 'shell.search' | 'shell.sessions';
export type ShellHandlers = Pick<Handlers<HostMethods>, ShellMethodNames>;

/** How long act mode's validator may take before the user is asked instead. */
const VALIDATOR_TIMEOUT_MS = 30_000;

export interface ShellHostOptions {
  log: Logger;
  processes?: ProcessRegistry;
  /** Tests replace the model factories and folders. */
  overrides?: Partial<Omit<ShellRunsDeps, 'emit'>>;
  /** Deputy's page tools for shell tasks, through the MCP bridge to the browser. */
  bridge?: (client: McpClientInfo, mode: 'ask' | 'act') => BridgeSession;
  /** The user's MCP servers (mcp.json), whose tools shell tasks may use. */
  servers?: McpServerPool;
}

function defaults(options: ShellHostOptions): Omit<ShellRunsDeps, 'emit'> {
  const pathEnv = currentPathEnv();
  const paths = shellPaths(pathEnv);
  const build = (settings: unknown, retries?: number) =>
    createProvider({ ...(settings as object), ...(retries === undefined ? {} : { maxRetries: retries }) } as Parameters<typeof createProvider>[0], { browser: false });
  return {
    sessionsRoot: paths.sessionsRoot,
    rulesFile: paths.rulesFile,
    createProvider: (settings) => build(settings),
    createValidator: (settings) => createValidator(build(settings, 1), { timeoutMs: VALIDATOR_TIMEOUT_MS, now: () => Date.now() }),
    home: pathEnv.home,
    localUser: userInfo().username,
    env: process.env,
    ...(options.processes ? { track: (child) => void options.processes?.track(child) } : {}),
    log: options.log,
    now: () => Date.now(),
    ...(options.bridge ? { bridge: options.bridge } : {}),
    ...(options.servers ? { servers: options.servers } : {}),
    ...options.overrides,
  };
}

/**
 * The host channel's shell methods. The runs are made on first use, with the event sender of the connection that
 * asked; the host's shutdown ends every open session and what runs in it.
 */
export function shellHandlers(options: ShellHostOptions | undefined): ShellHandlers {
  let runs: ShellRuns | undefined;
  const get = (emit: (event: string, data: unknown) => void): ShellRuns => {
    if (!options) throw new AppError('unavailable', 'Shell tasks are not part of this host build.');
    if (!runs) {
      const made = new ShellRuns({ ...defaults(options), emit: (event) => emit('shell.task', event) });
      options.processes?.onShutdown(() => made.closeAll());
      runs = made;
    }
    return runs;
  };
  return {
    'shell.run': (params, context) => get(context.emit).start(params),
    'shell.resume': (params, context) => get(context.emit).resume(params),
    'shell.answer': (params, context) => ({ accepted: get(context.emit).answer(params) }),
    'shell.stop': (params, context) => ({ stopped: get(context.emit).stop(params.sessionId) }),
    'shell.kill': async (params, context) => ({ process: await get(context.emit).kill(params.sessionId, params.processId) }),
    'shell.output': (params, context) => ({ text: get(context.emit).output(params.sessionId, params.processId, params.chars) }),
    'shell.search': async (params, context) => {
      const result = await get(context.emit).search(params.sessionId, params);
      return { hits: result.hits, matches: result.matches, linesSearched: result.linesSearched };
    },
    'shell.sessions': async (_params, context) => ({ sessions: await get(context.emit).sessions() }),
  };
}

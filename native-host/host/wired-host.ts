import { createDesktopService } from '../desktop/create-desktop-service';
import { createLoopManager } from '../loop/loop-manager';
import { LateBrowserLink } from '../mcp/browser-link';
import { createMcpBridge } from '../mcp/create-mcp-broker';
import { createLogger, fileSink, streamSink } from '../log/logger';
import { currentPathEnv, hostLogFile } from '../paths';
import { HOST_VERSION } from '../version';
import type { EarlyHello } from './early-hello';
import { createExtensionLink } from './extension-link';
import { ProcessRegistry } from './process-registry';
import { runHost, type StopReason } from './run-host';

/** How long shutdown may take in total before the process exits regardless. */
const FORCED_EXIT_MS = 8000;
/** After a clean stop, how long a stray handle (a timer, a socket some module left open) may keep the process up. */
const LINGER_MS = 2000;

/**
 * The host's services wired to the real stdio, log file and signals, taking over from the early reader (see
 * host-command.ts); makes sure the process ends: cleanly when the loop stops, forcibly if shutdown hangs.
 */
export async function runWiredHost(
  early: EarlyHello,
  options: {
    /** The signal that came while the services loaded, if any; stops the early handlers (this host's are in by then). */
    takeSignal?: () => NodeJS.Signals | undefined;
  } = {},
): Promise<number> {
  const logFile = hostLogFile(currentPathEnv());
  const file = fileSink(logFile);
  const level = process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'info';
  const log = createLogger('host', [streamSink(process.stderr), file], level);
  log.info('started', { version: HOST_VERSION, pid: process.pid, origin: process.argv.find((a) => a.startsWith('chrome-extension://')) });

  const processes = new ProcessRegistry();
  const desktop = createDesktopService({ entry: process.argv[1] ?? '', log, processes });
  const link = new LateBrowserLink();
  const mcp = await createMcpBridge({ link, pathEnv: currentPathEnv(), log: log.child('mcp'), processes, desktop });
  const extension = createExtensionLink({ log: log.child('extension') });
  const host = runHost({
    early,
    extension,
    io: { stdin: process.stdin, stdout: process.stdout },
    log,
    processes,
    link,
    info: {
      version: HOST_VERSION,
      platform: process.platform,
      pid: process.pid,
      now: () => Date.now(),
      desktop,
      loops: createLoopManager({ entry: process.argv[1] ?? '', log: log.child('loop'), track: (child) => processes.track(child), fillForm: extension.fillForm }),
      shell: { log: log.child('shell'), processes, bridge: (client, mode) => mcp.broker.openInternal(client, mode), ...(mcp.broker.servers ? { servers: mcp.broker.servers } : {}) },
      mcp: mcp.broker,
    },
  });
  const forceExitAfter = (ms: number, why: string): void => {
    setTimeout(() => {
      log.error(`forced exit: ${why}`);
      process.exit(1);
    }, ms).unref();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    log.info('signal', { signal });
    host.stop('signal');
    forceExitAfter(FORCED_EXIT_MS, 'shutdown did not finish in time');
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const signalledEarly = options.takeSignal?.();
  if (signalledEarly !== undefined) onSignal(signalledEarly);

  const reason = await host.stopped;
  log.info('stopped', { reason });
  await file.close();
  // Flush stdout before exiting so the last replies are not lost.
  await new Promise<void>((resolve) => (process.stdout.writableLength === 0 ? resolve() : process.stdout.once('drain', () => resolve())));
  // The browser may keep its end of stdin open (after a corrupt length, or on a signal): release it so the process
  // can end, and make sure nothing else keeps it up.
  process.stdin.destroy();
  forceExitAfter(LINGER_MS, 'a handle kept the process alive after it stopped');
  return exitCodeFor(reason);
}

/** A corrupt stream is the one failure; every other stop was asked for (stdin closed, a signal, the browser gone). */
export function exitCodeFor(reason: StopReason): number {
  return reason === 'corrupt-length' ? 1 : 0;
}

import { Console } from 'node:console';
import { join } from 'node:path';
import { createDesktopService } from '../desktop/create-desktop-service';
import { createLoopManager } from '../loop/loop-manager';
import { createLogger, fileSink, streamSink } from '../log/logger';
import { appPaths, currentPathEnv } from '../paths';
import { HOST_VERSION } from '../version';
import { ProcessRegistry } from './process-registry';
import { runHost } from './run-host';

/** How long shutdown may take in total before the process exits regardless. */
const FORCED_EXIT_MS = 8000;

/**
 * `deputy native-host`: the process Chrome starts. Wires the real stdio, log file and signals to runHost, and makes
 * sure the process ends: cleanly when the loop stops, forcibly if shutdown hangs.
 */
export async function hostCommand(): Promise<number> {
  // stdout is the protocol: a stray console.log from any module would corrupt it, so console goes to stderr.
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const paths = appPaths(currentPathEnv());
  const logFile = process.env.DEPUTY_LOG_FILE ?? join(paths.logDir, 'host.log');
  const file = fileSink(logFile);
  const level = process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'info';
  const log = createLogger('host', [streamSink(process.stderr), file], level);
  log.info('started', { version: HOST_VERSION, pid: process.pid, origin: process.argv.find((a) => a.startsWith('chrome-extension://')) });

  const processes = new ProcessRegistry();
  const host = runHost({
    io: { stdin: process.stdin, stdout: process.stdout },
    log,
    processes,
    info: {
      version: HOST_VERSION,
      platform: process.platform,
      pid: process.pid,
      now: () => Date.now(),
      desktop: createDesktopService({ entry: process.argv[1] ?? '', log, processes }),
      loops: createLoopManager({ entry: process.argv[1] ?? '', log: log.child('loop'), track: (child) => processes.track(child) }),
    },
  });
  const onSignal = (signal: NodeJS.Signals): void => {
    log.info('signal', { signal });
    host.stop('signal');
    setTimeout(() => {
      log.error('forced exit: shutdown did not finish in time');
      process.exit(1);
    }, FORCED_EXIT_MS).unref();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const reason = await host.stopped;
  log.info('stopped', { reason });
  await file.close();
  // Flush stdout before exiting so the last replies are not lost.
  await new Promise<void>((resolve) => (process.stdout.writableLength === 0 ? resolve() : process.stdout.once('drain', () => resolve())));
  return reason === 'corrupt-length' ? 1 : 0;
}

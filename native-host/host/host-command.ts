import { Console } from 'node:console';
import { MAX_MESSAGE_FROM_BROWSER_BYTES, MAX_MESSAGE_TO_BROWSER_BYTES } from '../../shared/constants';
import { HOST_VERSION } from '../version';
import { greetEarly } from './early-hello';

/**
 * `deputy native-host`: the process Chrome starts. It reads stdin and answers the browser's hello at once, then loads
 * and wires its services (desktop, fix loops, shell, the MCP bridge), which take over what came in meanwhile: a busy
 * machine can take longer to load them than the browser waits for its first answer.
 */
export async function hostCommand(): Promise<number> {
  // stdout is the protocol: a stray console.log from any module would corrupt it, so console goes to stderr.
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  // The wired host has all three services (wired-host.ts), so its hello would name them too.
  const early = greetEarly(
    { stdin: process.stdin, stdout: process.stdout },
    { version: HOST_VERSION, platform: process.platform, pid: process.pid, desktop: true, shell: true, mcp: true },
    { maxInboundBytes: MAX_MESSAGE_FROM_BROWSER_BYTES, maxOutboundBytes: MAX_MESSAGE_TO_BROWSER_BYTES },
  );
  // A stop asked for while the services load (the browser closing, Ctrl-C) is kept, not left to Node's default (which
  // ends the process by the signal, without a clean stop): the wired host acts on it once its own handlers are in.
  let signalled: NodeJS.Signals | undefined;
  const onEarlySignal = (signal: NodeJS.Signals): void => void (signalled ??= signal);
  process.on('SIGINT', onEarlySignal);
  process.on('SIGTERM', onEarlySignal);
  const { runWiredHost } = await import('./wired-host');
  return runWiredHost(early, {
    takeSignal: () => {
      process.off('SIGINT', onEarlySignal);
      process.off('SIGTERM', onEarlySignal);
      return signalled;
    },
  });
}

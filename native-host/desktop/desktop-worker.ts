import { createLogger, streamSink } from '../log/logger';
import { createRouter } from '../host/router';
import { abortableSleep } from './abortable-sleep';
import { createNutDriver } from './nut-driver';
import { loadSharp } from './screenshot-encoder';
import { sensitiveTextCheck } from './sensitive-text';
import { chordMatcher, loadKeyboardHook, watchStopHotkey } from './stop-hotkey';
import { DesktopWorkerChannel } from './worker-channel';
import { workerHandlers } from './worker-handlers';
import { x11WindowTitle } from './x11-window-title';
import { listXrandrMonitors } from './xrandr-monitors';

/**
 * `deputy desktop-worker`: the child process the host starts for desktop control. It speaks the desktop-worker channel
 * over its IPC pipe and ends when the host goes away. The host checked for a display before starting it.
 */
export async function desktopWorkerMain(): Promise<number> {
  const send = process.send?.bind(process);
  if (!send) {
    process.stderr.write('deputy: desktop-worker is started by the host over IPC, not from a terminal\n');
    return 2;
  }
  const log = createLogger('desktop-worker', [streamSink(process.stderr)], process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'info');
  const linux = process.platform === 'linux';
  const driver = await createNutDriver({
    listMonitors: linux ? () => listXrandrMonitors() : undefined,
    windowTitle: linux ? () => x11WindowTitle() : undefined,
  });
  const sharp = await loadSharp();
  let stopHook: (() => void) | undefined;

  const emit = (event: string, data: unknown): void => void send({ kind: 'event', event, data });
  const handlers = workerHandlers({
    driver,
    sharp,
    platform: process.platform,
    flagsSensitive: sensitiveTextCheck(),
    sleep: abortableSleep,
    now: () => Date.now(),
    emit,
    onPngError: (path, error) => log.warn('could not keep a screenshot', { path, error: String(error) }),
    listenForHotkey: async (chord, onStop) => {
      try {
        const { hook, codes } = await loadKeyboardHook();
        stopHook = watchStopHotkey(hook, chordMatcher(chord, codes), onStop);
        return undefined;
      } catch (error) {
        log.warn('stop hotkey unavailable', { error: String(error) });
        return `The global keyboard hook could not start (${String(error).slice(0, 200)}).`;
      }
    },
  });
  const route = createRouter(DesktopWorkerChannel, handlers, { log, emit });

  process.on('message', (message) => {
    void route(Buffer.from(JSON.stringify(message))).then((reply) => send(reply));
  });
  // The host disconnects (or sends SIGTERM when it shuts down): finish the screenshots still being written, then end.
  await new Promise<void>((resolve) => {
    process.once('disconnect', resolve);
    process.once('SIGTERM', resolve);
  });
  stopHook?.();
  await handlers.flush();
  return 0;
}

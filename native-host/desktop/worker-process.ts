import { fork } from 'node:child_process';
import { endChild, type ProcessRegistry } from '../host/process-registry';
import type { WorkerHandle } from './desktop-service';

/**
 * Starts `deputy desktop-worker` from the same script as the running host. Its stdout goes to the host's stderr: the
 * host's own stdout carries protocol frames only. The registry ends the worker with the host.
 */
export function forkDesktopWorker(entry: string, processes?: ProcessRegistry): WorkerHandle {
  const child = fork(entry, ['desktop-worker'], { stdio: ['ignore', 2, 2, 'ipc'], execArgv: [], serialization: 'json' });
  processes?.track(child);
  // A worker whose display just went away can die between the connected check and the write: the write then fails
  // with EPIPE, reported as an 'error' event that would end the whole host if nobody listened. The exit that follows
  // rejects the calls in flight with the reason, so the error itself needs no further handling.
  child.on('error', () => undefined);
  return {
    send: (message) => {
      if (!child.connected) throw new Error('the desktop worker is not running');
      child.send(message as object, (error) => {
        if (error) child.kill('SIGKILL');
      });
    },
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', listener),
    kill: () => void child.kill('SIGTERM'),
    // Disconnecting lets the worker finish writing its screenshots before it ends.
    close: (graceMs = 5000) => endChild(child, graceMs, () => (child.connected ? child.disconnect() : child.kill('SIGTERM'))),
  };
}

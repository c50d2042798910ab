import { AppError } from '../../shared/errors';
import {
  RpcClient,
  DesktopActParams,
  type DesktopActResult,
  DesktopScreenshotParams,
  type DesktopScreenshotResult,
  type DesktopStatus,
  type DesktopStoppedEvent,
} from '../../shared/protocol';
import type { Logger } from '../log/logger';
import type { DesktopPolicy } from './desktop-policy';
import type { ProbeResult } from './display-probe';
import { DesktopWorkerChannel } from './worker-channel';

/** A started worker process, as the service needs it; the real one wraps child_process.fork. */
export interface WorkerHandle {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  kill(): void;
  /** Lets the worker finish what it is writing and end; kills it after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

export interface DesktopServiceDeps {
  probe(): Promise<ProbeResult>;
  startWorker(): WorkerHandle;
  /** Reads the blocked lists; a failure makes desktop control unavailable with its message. */
  loadPolicy(): Promise<DesktopPolicy>;
  stopHotkey: string;
  /** Whether to listen for the stop hotkey (off for one-off screenshots in the benchmark, on for tasks). */
  listenForHotkey: boolean;
  log: Logger;
  /** Replies larger than this are re-encoded smaller, keeping the host's messages under the browser's 1 MB cap. */
  maxImageBytes: number;
  initTimeoutMs?: number;
}

type Ready = { status: Extract<DesktopStatus, { available: true }>; client: RpcClient<typeof DesktopWorkerChannel.methods, typeof DesktopWorkerChannel.events>; worker: WorkerHandle };

/**
 * Desktop control as the host sees it. The first call probes for a display and, if there is one, starts the desktop
 * worker; without a display every call answers "unavailable" with the reason, and nothing native is ever loaded into
 * the host. A worker that dies (a lost X server, a native crash) is noted, and the next call starts a new one.
 */
export class DesktopService {
  private ready: Promise<Ready | { status: Extract<DesktopStatus, { available: false }> }> | undefined;
  private readonly stopListeners = new Set<(event: DesktopStoppedEvent) => void>();

  constructor(private readonly deps: DesktopServiceDeps) {}

  get log(): Logger {
    return this.deps.log;
  }

  /** Calls `listener` whenever the user presses the stop hotkey. Returns the function that removes it. */
  onStop(listener: (event: DesktopStoppedEvent) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  async status(refresh = false): Promise<DesktopStatus> {
    if (refresh) await this.reset();
    return (await this.start()).status;
  }

  async screenshot(params: DesktopScreenshotParams): Promise<DesktopScreenshotResult> {
    const ready = await this.requireReady();
    return ready.client.call('screenshot', { ...DesktopScreenshotParams.parse(params), maxBytes: this.deps.maxImageBytes }).catch(workerGone);
  }

  async act(params: DesktopActParams): Promise<DesktopActResult> {
    const parsed = DesktopActParams.parse(params);
    const ready = await this.requireReady();
    const timeoutMs = parsed.action.kind === 'wait' ? parsed.action.seconds * 1000 + 10_000 : 120_000;
    return ready.client.call('act', parsed, { timeoutMs }).catch(workerGone);
  }

  /** Cuts off the actions in progress, as the hotkey does; used when a task is stopped from the side panel or CLI. */
  async cancel(): Promise<number> {
    const state = await this.ready;
    if (!state || !('client' in state)) return 0;
    return (await state.client.call('cancel', {})).cancelled;
  }

  /** Ends the worker gracefully, so the screenshots it is still writing reach the run folder. */
  async close(): Promise<void> {
    const state = await this.ready?.catch(() => undefined);
    this.ready = undefined;
    if (state && 'worker' in state) await state.worker.close();
  }

  private async requireReady(): Promise<Ready> {
    const state = await this.start();
    if (!('client' in state)) throw new AppError('unavailable', `Desktop control is unavailable: ${state.status.reason}`);
    return state;
  }

  private async reset(): Promise<void> {
    const state = await this.ready?.catch(() => undefined);
    this.ready = undefined;
    if (state && 'worker' in state) state.worker.kill();
  }

  private start(): Promise<Ready | { status: Extract<DesktopStatus, { available: false }> }> {
    this.ready ??= this.launch().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      this.ready = undefined;
      return { status: { available: false as const, reason } };
    });
    return this.ready;
  }

  private async launch(): Promise<Ready | { status: Extract<DesktopStatus, { available: false }> }> {
    const probe = await this.deps.probe();
    if (!probe.ok) {
      // Not cached: the user may start a display and ask again.
      this.ready = undefined;
      return { status: { available: false, reason: probe.reason } };
    }
    const policy = await this.deps.loadPolicy();
    const worker = this.deps.startWorker();
    const client = new RpcClient(DesktopWorkerChannel, { send: (message) => worker.send(message), timeoutMs: 30_000, idPrefix: 'dw' });
    let exited: ((why: string) => void) | undefined;
    const exit = new Promise<never>((_, reject) => (exited = (why) => reject(new Error(why))));
    exit.catch(() => undefined);
    worker.onMessage((message) => {
      if (client.receive(message)) return;
      const event = DesktopWorkerChannel.Event.safeParse(message);
      if (event.success && event.data.event === 'stopped') for (const listener of this.stopListeners) listener(event.data.data);
    });
    worker.onExit((code, signal) => {
      const why = signal === null ? `exit code ${code ?? '?'}` : `signal ${signal}`;
      this.deps.log.warn('desktop worker ended', { code, signal });
      const reason = `The desktop worker could not use the display and ended (${why}). Check that this user may open the X display (xhost, XAUTHORITY).`;
      client.rejectAll(new AppError('unavailable', reason));
      exited?.(reason);
      this.ready = undefined;
    });
    try {
      const init = await Promise.race([
        client.call('init', { policy, stopHotkey: this.deps.stopHotkey, listenForHotkey: this.deps.listenForHotkey }, { timeoutMs: this.deps.initTimeoutMs ?? 20_000 }),
        exit,
      ]);
      if (init.hotkeyProblem !== undefined) this.deps.log.warn('stop hotkey inactive', { problem: init.hotkeyProblem });
      return {
        status: { available: true, platform: init.platform, displays: init.displays, stopHotkey: init.stopHotkey, stopHotkeyActive: init.stopHotkeyActive },
        client,
        worker,
      };
    } catch (error) {
      worker.kill();
      throw error;
    }
  }
}

/**
 * A worker that died a moment ago (its display went away) may not have reported its exit yet, so sending to it fails
 * as "disconnected". For the caller that is the same thing as the exit: desktop control is unavailable right now.
 */
function workerGone(error: unknown): never {
  if (error instanceof AppError && error.code === 'disconnected') {
    throw new AppError('unavailable', `Desktop control is unavailable: the desktop worker ended (${error.message}). Check that the X display is still running.`);
  }
  throw error;
}

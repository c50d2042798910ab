import { EXTENSION_ID, HOST_INSTALL_COMMAND, NATIVE_HOST_NAME, PROTOCOL_VERSION } from '../../../shared/constants';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { MAX_MESSAGE_TO_BROWSER_BYTES } from '../../../shared/constants';
import {
  Chunk,
  ChunkJoiner,
  HostChannel,
  HostRequestChannel,
  RequestEnvelope,
  RpcClient,
  errorResponse,
  serveRequest,
  splitIntoChunks,
  type ChannelHandlers,
  type HostRequestMethods,
  type HostMethods,
  type HostStatus,
  type ParamsOf,
  type ResultOf,
} from '../../../shared/protocol';
import type { NativePort } from '../../platform/native';

export interface HostConnectionDeps {
  connect: (hostName: string) => NativePort;
  log: Logger;
  now: () => number;
  random: () => number;
  setTimer: (callback: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimer: (handle: ReturnType<typeof setTimeout>) => void;
  clientVersion: string;
  /** This copy's extension id, named when the installed host allows another one. */
  extensionId?: string;
  onStatus: (status: HostStatus) => void;
  onEvent?: (event: string, data: unknown) => void;
  /** What the host may ask the extension (a connected agent's page tools, approvals); refused when absent. */
  requests?: ChannelHandlers<HostRequestMethods>;
  requestTimeoutMs?: number;
  /** How long a running host may take to answer hello before it is taken as hung and started again (default 5 min). */
  helloTimeoutMs?: number;
  /** How long before a running host that has not answered yet is shown as starting (default 2 s). */
  startingAfterMs?: number;
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
/** A missing host is checked again now and then, so installing it takes effect without reloading the extension. */
const NOT_INSTALLED_RETRY_MS = 30_000;
/**
 * A host on a busy machine can take tens of seconds to start: while its port stays open it is running, so the hello
 * waits this long before the host is taken as hung. A host that exits or cannot start drops the port at once.
 */
const HELLO_PATIENCE_MS = 5 * 60_000;
const STARTING_AFTER_MS = 2000;
/** What a starting host is waited for, as the panel shows it. */
export const WAITING_FOR_HELLO = "the native host's answer to hello (its process is running and still starting)";

/**
 * The background's link to the native host: one port, a hello handshake that checks the protocol version, request
 * ids with per-request timeouts, every pending request rejected when the port drops, and reconnection with
 * exponential backoff and jitter.
 */
export class HostConnection {
  private port: NativePort | undefined;
  private rpc: RpcClient<HostMethods, HostChannel['events']> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private startingTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private current: HostStatus;
  private readonly joiner: ChunkJoiner;

  constructor(private readonly deps: HostConnectionDeps) {
    this.current = { state: 'connecting', updatedAt: deps.now() };
    this.joiner = new ChunkJoiner(deps.now);
  }

  get status(): HostStatus {
    return this.current;
  }

  /** Connects unless already connected or connecting. */
  start(): void {
    if (this.port) return;
    this.cancelRetry();
    this.open();
  }

  /** Drops any connection and connects again at once (the user pressed Retry, or just installed the host). */
  reconnectNow(): void {
    this.cancelRetry();
    this.failures = 0;
    this.close(new AppError('disconnected', 'Reconnecting to the host'));
    this.open();
  }

  async call<K extends keyof HostMethods & string>(
    method: K,
    params: ParamsOf<HostMethods, K>,
    options: { timeoutMs?: number } = {},
  ): Promise<ResultOf<HostMethods, K>> {
    if (this.current.state !== 'connected' || !this.rpc) {
      throw this.current.state === 'not_installed'
        ? new AppError('host_not_installed', this.current.message ?? `The host is not installed: run ${HOST_INSTALL_COMMAND}`)
        : new AppError('disconnected', `The host is not connected (${this.current.state})`);
    }
    return this.rpc.call(method, params, options);
  }

  private open(): void {
    this.setStatus({ state: 'connecting' });
    let port: NativePort;
    try {
      port = this.deps.connect(NATIVE_HOST_NAME);
    } catch (error) {
      this.onDisconnect(undefined, String(error));
      return;
    }
    this.port = port;
    const rpc = new RpcClient(HostChannel, {
      send: (message) => port.post(message),
      timeoutMs: this.deps.requestTimeoutMs ?? 30_000,
      idPrefix: 'bg',
    });
    this.rpc = rpc;
    port.onMessage((message) => this.onMessage(rpc, message));
    port.onDisconnect((error) => this.onDisconnect(port, error));
    const since = this.deps.now();
    this.startingTimer = this.deps.setTimer(() => {
      this.startingTimer = undefined;
      if (this.rpc === rpc && this.current.state === 'connecting') {
        this.deps.log.info('host is starting', { waitedMs: this.deps.now() - since });
        this.setStatus({ state: 'starting', waitingFor: WAITING_FOR_HELLO, since });
      }
    }, this.deps.startingAfterMs ?? STARTING_AFTER_MS);
    void this.handshake(rpc);
  }

  private cancelStarting(): void {
    if (this.startingTimer !== undefined) this.deps.clearTimer(this.startingTimer);
    this.startingTimer = undefined;
  }

  private async handshake(rpc: RpcClient<HostMethods, HostChannel['events']>): Promise<void> {
    try {
      const hello = await rpc.call(
        'hello',
        { protocolVersion: PROTOCOL_VERSION, client: 'extension', clientVersion: this.deps.clientVersion },
        { timeoutMs: this.deps.helloTimeoutMs ?? HELLO_PATIENCE_MS },
      );
      if (this.rpc !== rpc) return;
      this.cancelStarting();
      if (!hello.compatible) {
        this.setStatus({
          state: 'incompatible',
          hostVersion: hello.hostVersion,
          protocolVersion: hello.protocolVersion,
          message: `The host ${hello.hostVersion} speaks protocol ${hello.protocolVersion}; this extension speaks ${PROTOCOL_VERSION}. Rebuild and reinstall: npm run build && ${HOST_INSTALL_COMMAND}`,
        });
        return;
      }
      this.failures = 0;
      this.deps.log.info('host connected', { hostVersion: hello.hostVersion, pid: hello.pid });
      this.setStatus({ state: 'connected', hostVersion: hello.hostVersion, protocolVersion: hello.protocolVersion });
    } catch (error) {
      if (this.rpc !== rpc) return;
      this.deps.log.warn('hello failed', { error: String(error) });
      // onDisconnect closes the port itself; closing it first would make it look stale there, and no retry would
      // ever be scheduled.
      this.onDisconnect(this.port, `hello failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private onMessage(rpc: RpcClient<HostMethods, HostChannel['events']>, message: unknown): void {
    const chunk = Chunk.safeParse(message);
    if (chunk.success) {
      let whole: unknown;
      try {
        whole = this.joiner.add(chunk.data);
      } catch (error) {
        this.deps.log.warn('bad chunk stream', { error: String(error) });
        return;
      }
      if (whole !== undefined) this.onMessage(rpc, whole);
      return;
    }
    if (rpc.receive(message)) return;
    if (RequestEnvelope.safeParse(message).success) {
      void this.answerHost(message);
      return;
    }
    const event = HostChannel.Event.safeParse(message);
    if (event.success) {
      this.deps.onEvent?.(event.data.event, event.data.data);
      return;
    }
    this.deps.log.warn('unexpected message from host');
  }

  /**
   * Answers a request from the host on the port it came in on. Replies larger than a native message to the browser may
   * be go in chunks, as the host's own do, so every frame on the pipe stays small.
   */
  private async answerHost(message: unknown): Promise<void> {
    const port = this.port;
    const handlers = this.deps.requests;
    const id = RequestEnvelope.parse(message).id;
    const reply = handlers
      ? await serveRequest(HostRequestChannel, handlers, message)
      : errorResponse(id, { code: 'unavailable', message: 'This extension does not take requests from the host.' });
    if (!port || port !== this.port) return;
    try {
      const json = JSON.stringify(reply);
      if (json.length <= MAX_MESSAGE_TO_BROWSER_BYTES / 4) port.post(reply);
      else for (const chunk of splitIntoChunks(json, crypto.randomUUID(), MAX_MESSAGE_TO_BROWSER_BYTES)) port.post(chunk);
    } catch (error) {
      this.deps.log.warn('could not answer the host', { error: String(error) });
    }
  }

  private onDisconnect(port: NativePort | undefined, error: string | undefined): void {
    if (port !== undefined && port !== this.port) return;
    this.close(new AppError('disconnected', `The host disconnected${error ? `: ${error}` : ''}`));
    const notInstalled = error !== undefined && /not found|forbidden/i.test(error);
    if (notInstalled) {
      const forbidden = /forbidden/i.test(error);
      this.setStatus({
        state: 'not_installed',
        message: forbidden
          ? forbiddenMessage(this.deps.extensionId)
          : `host not installed: run \`${HOST_INSTALL_COMMAND}\``,
        retryInMs: NOT_INSTALLED_RETRY_MS,
      });
      this.scheduleRetry(NOT_INSTALLED_RETRY_MS);
      return;
    }
    this.failures += 1;
    const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.failures - 1));
    const delay = Math.round(exponential * (0.5 + this.deps.random() / 2));
    this.deps.log.warn('host disconnected', { error, retryInMs: delay, failures: this.failures });
    // A host that exits before it ever answers is broken, not slow: most often its registration points at a Deputy
    // folder that moved or was deleted, or at a Node that was removed. Doctor names which, and install rewrites it.
    const neverAnswered = this.current.state === 'connecting' || this.current.state === 'starting';
    const message = neverAnswered
      ? `${error ?? 'The host exited'} It exited before answering, so it is broken rather than slow (often its registration points at a Deputy folder that moved, or at a Node that is gone): run \`npm run deputy -- doctor\` in the Deputy folder to see which, then \`${HOST_INSTALL_COMMAND}\`.`
      : (error ?? 'The host exited');
    this.setStatus({ state: 'disconnected', message, retryInMs: delay });
    this.scheduleRetry(delay);
  }

  private close(reason: AppError): void {
    this.cancelStarting();
    const port = this.port;
    const rpc = this.rpc;
    this.port = undefined;
    this.rpc = undefined;
    rpc?.rejectAll(reason);
    try {
      port?.disconnect();
    } catch {
      // Already gone; nothing to release.
    }
  }

  private scheduleRetry(ms: number): void {
    this.cancelRetry();
    this.retryTimer = this.deps.setTimer(() => {
      this.retryTimer = undefined;
      this.open();
    }, ms);
  }

  private cancelRetry(): void {
    if (this.retryTimer !== undefined) this.deps.clearTimer(this.retryTimer);
    this.retryTimer = undefined;
  }

  private setStatus(status: Omit<HostStatus, 'updatedAt'>): void {
    this.current = { ...status, updatedAt: this.deps.now() };
    this.deps.onStatus(this.current);
  }
}

/**
 * Chrome refuses the connection when the host's manifest does not allow this extension's id: a copy installed from a
 * store has an id of its own, not the pinned one a build loaded unpacked has. Installing again with this id fixes it.
 */
export function forbiddenMessage(id: string | undefined): string {
  if (id === undefined || id === EXTENSION_ID) return `The host is registered for another extension id: run ${HOST_INSTALL_COMMAND}`;
  return `The host is registered for another extension id, not this copy's (${id}): run \`deputy install --extension-id ${id}\` (from a Deputy checkout: \`${HOST_INSTALL_COMMAND} -- --extension-id ${id}\`), then Retry.`;
}

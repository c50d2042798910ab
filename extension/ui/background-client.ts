import { AppError } from '../../shared/errors';
import {
  RpcClient,
  UiChannel,
  type ParamsOf,
  type ResultOf,
  type UiMethods,
} from '../../shared/protocol';
import type { RuntimePort } from '../platform/runtime';

type UiEvents = UiChannel['events'];
type EventListener = (event: string, data: unknown) => void;

export interface BackgroundClientDeps {
  connect: () => RuntimePort;
  setTimer: (callback: () => void, ms: number) => void;
  timeoutMs?: number;
}

/**
 * The side panel's and popup's link to the background: one "ui" port, typed requests, events, and a new port as soon
 * as the old one drops (the service worker was stopped), which also wakes the worker up again.
 */
export class BackgroundClient {
  private port: RuntimePort | undefined;
  private rpc: RpcClient<UiMethods, UiEvents> | undefined;
  private readonly listeners = new Set<EventListener>();
  private readonly connectListeners = new Set<() => void>();
  private connections = 0;

  constructor(private readonly deps: BackgroundClientDeps) {}

  /** How many times a port was opened; more than one means the panel reconnected. */
  get connectionCount(): number {
    return this.connections;
  }

  start(): void {
    if (this.port) return;
    const port = this.deps.connect();
    const rpc = new RpcClient(UiChannel, {
      send: (message) => port.post(message),
      timeoutMs: this.deps.timeoutMs ?? 30_000,
      idPrefix: 'ui',
    });
    this.port = port;
    this.rpc = rpc;
    this.connections += 1;
    port.onMessage((message) => {
      if (rpc.receive(message)) return;
      const event = UiChannel.Event.safeParse(message);
      if (event.success) for (const listener of this.listeners) listener(event.data.event, event.data.data);
    });
    port.onDisconnect(() => {
      if (this.port !== port) return;
      this.port = undefined;
      this.rpc = undefined;
      rpc.rejectAll(new AppError('disconnected', 'The background restarted; reconnecting'));
      this.deps.setTimer(() => this.start(), 100);
    });
    for (const listener of this.connectListeners) listener();
  }

  /** `timeoutMs` is for a call that has its own, longer bound further on (drafting a loop with a slow model). */
  call<K extends keyof UiMethods & string>(method: K, params: ParamsOf<UiMethods, K>, options: { timeoutMs?: number } = {}): Promise<ResultOf<UiMethods, K>> {
    if (!this.rpc) this.start();
    if (!this.rpc) return Promise.reject(new AppError('disconnected', 'No connection to the background'));
    return this.rpc.call(method, params, options);
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after every (re)connection, so views can fetch fresh state. */
  onConnect(listener: () => void): () => void {
    this.connectListeners.add(listener);
    return () => this.connectListeners.delete(listener);
  }
}

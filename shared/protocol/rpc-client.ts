import { AppError, describeZodError } from '../errors';
import type { Channel, EventMap, MethodMap, ParamsOf, ResultOf } from './channel';
import { Response } from './channel';

export interface RpcClientOptions {
  /** Sends one request message; throws if the transport is gone. */
  send: (message: unknown) => void;
  /** Default per-request timeout. */
  timeoutMs: number;
  /** Prefix for request ids, so logs show which client sent a request. */
  idPrefix?: string;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: AppError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The request side of a channel: ids, per-request timeouts, typed results, and every pending request rejected at once
 * when the transport goes away. It knows nothing about ports or pipes; the owner wires `send` and `receive`.
 */
export class RpcClient<M extends MethodMap, E extends EventMap> {
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  constructor(
    private readonly channel: Channel<M, E>,
    private readonly options: RpcClientOptions,
  ) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  call<K extends keyof M & string>(
    method: K,
    params: ParamsOf<M, K>,
    options: { timeoutMs?: number } = {},
  ): Promise<ResultOf<M, K>> {
    this.sequence += 1;
    const id = `${this.options.idPrefix ?? this.channel.name}-${this.sequence}-${crypto.randomUUID().slice(0, 8)}`;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    return new Promise<ResultOf<M, K>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppError('timeout', `${this.channel.name}.${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (value) => resolve(value as ResultOf<M, K>),
        reject,
        timer,
      });
      try {
        this.options.send({ kind: 'request', id, method, params });
      } catch (error) {
        this.settle(id);
        clearTimeout(timer);
        reject(new AppError('disconnected', `Could not send ${method}: ${String(error)}`, { cause: error }));
      }
    });
  }

  /**
   * Offers an incoming message to the client. Returns true when it was a response to one of its requests. The result
   * is validated against the method's declared schema before the caller sees it.
   */
  receive(message: unknown): boolean {
    const parsed = Response.safeParse(message);
    if (!parsed.success) return false;
    const response = parsed.data;
    if (response.id === null) return false;
    const pending = this.settle(response.id);
    if (!pending) return false;
    if (!response.ok) {
      pending.reject(AppError.fromShape(response.error));
      return true;
    }
    const spec = this.channel.methods[pending.method];
    const result = spec ? spec.result.safeParse(response.result) : undefined;
    if (!result || !result.success) {
      const why = result && !result.success ? describeZodError(result.error) : 'unknown method';
      pending.reject(new AppError('bad_request', `Malformed ${pending.method} result: ${why}`));
      return true;
    }
    pending.resolve(result.data);
    return true;
  }

  /** Rejects every pending request, for example when the port disconnects. */
  rejectAll(error: AppError): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    return pending;
  }
}

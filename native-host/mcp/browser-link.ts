import { AppError } from '../../shared/errors';
import type { HostRequestMethods, ParamsOf, ResultOf, RpcClient, HostRequestChannel } from '../../shared/protocol';

/** The host's way to the extension: requests it answers (page tools, approvals) and events for the panel's log. */
export interface BrowserLink {
  call<K extends keyof HostRequestMethods & string>(method: K, params: ParamsOf<HostRequestMethods, K>, options?: { timeoutMs?: number }): Promise<ResultOf<HostRequestMethods, K>>;
  emit(event: 'mcp.session' | 'mcp.activity', data: unknown): void;
}

/**
 * A link bound once the host's native port is up: the MCP bridge is made before the port's reader, and a host run
 * without a browser (a test harness) answers every request with a clear error instead of waiting.
 */
export class LateBrowserLink implements BrowserLink {
  private rpc: RpcClient<HostRequestMethods, HostRequestChannel['events']> | undefined;
  private send: ((event: string, data: unknown) => void) | undefined;

  attach(rpc: RpcClient<HostRequestMethods, HostRequestChannel['events']>, emit: (event: string, data: unknown) => void): void {
    this.rpc = rpc;
    this.send = emit;
  }

  detach(reason: AppError): void {
    this.rpc?.rejectAll(reason);
    this.rpc = undefined;
    this.send = undefined;
  }

  call<K extends keyof HostRequestMethods & string>(method: K, params: ParamsOf<HostRequestMethods, K>, options?: { timeoutMs?: number }): Promise<ResultOf<HostRequestMethods, K>> {
    if (!this.rpc) return Promise.reject(new AppError('unavailable', 'The Deputy host is not connected to the browser extension.'));
    return this.rpc.call(method, params, options);
  }

  emit(event: 'mcp.session' | 'mcp.activity', data: unknown): void {
    this.send?.(event, data);
  }
}

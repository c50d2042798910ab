import { createConnection } from 'node:net';
import { AppError } from '../../shared/errors';
import { BridgeChannel, RpcClient, type BridgeMethods, type McpClientInfo, type ParamsOf, type ResultOf } from '../../shared/protocol';
import type { BridgePaths } from './bridge-paths';
import { readToken } from './bridge-security';
import { framedSocket } from './framed-socket';

/** What a client of the bridge says when the browser (and so its host) is not running. */
export function hostNotRunningMessage(paths: BridgePaths, detail: string): string {
  return `Deputy's browser is not running, so there is no Deputy host to talk to (${detail} at ${paths.socket}). Open Chrome, Chromium, Brave or Edge with the Deputy extension (its side panel should say "host: connected"), then try again.`;
}

export interface BridgeConnection {
  readonly sessionId: string;
  readonly hostVersion: string;
  call<K extends keyof BridgeMethods & string>(method: K, params: ParamsOf<BridgeMethods, K>, options?: { timeoutMs?: number }): Promise<ResultOf<BridgeMethods, K>>;
  /** Resolves when the connection ends, with why. */
  readonly ended: Promise<string>;
  close(): void;
}

export interface ConnectOptions {
  paths: BridgePaths;
  client: McpClientInfo;
  kind?: 'mcp' | 'task';
  mode?: 'ask' | 'act';
  onEvent?: (event: string, data: unknown) => void;
  /** Per-call timeout; page calls can wait on the user's approval, so it is long by default. */
  timeoutMs?: number;
}

/**
 * Connects to the running host's bridge socket and says hello with the per-user token. A missing token, a missing
 * socket or one nobody listens on means the browser is not running, and the error says to open it.
 */
export async function connectBridge(options: ConnectOptions): Promise<BridgeConnection> {
  const { paths } = options;
  const token = await readToken(paths.tokenFile).catch((error: unknown) => {
    throw new AppError('forbidden', `Cannot read the bridge token ${paths.tokenFile}: ${String(error)}`);
  });
  if (token === undefined) throw new AppError('unavailable', hostNotRunningMessage(paths, 'no token file yet'));
  const socket = createConnection({ path: paths.socket });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const detail = error.code === 'ENOENT' ? 'no socket' : error.code === 'ECONNREFUSED' ? 'nobody listens on the socket' : `${error.code ?? error.message}`;
      reject(new AppError('unavailable', hostNotRunningMessage(paths, detail)));
    });
  });
  let resolveEnded: (why: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (resolveEnded = resolve));
  let stopReason: string | undefined;
  const rpc = new RpcClient(BridgeChannel, { send: (message) => wire.send(message), timeoutMs: options.timeoutMs ?? 6 * 60 * 60_000, idPrefix: 'mcp' });
  const wire = framedSocket(socket, {
    onMessage: (message) => {
      if (rpc.receive(message)) return;
      const event = BridgeChannel.Event.safeParse(message);
      if (!event.success) return;
      if (event.data.event === 'bridge.stopped') stopReason = event.data.data.reason;
      options.onEvent?.(event.data.event, event.data.data);
    },
    onBadFrame: () => undefined,
    onClose: () => {
      const why = stopReason ?? 'The Deputy host closed the connection (the browser quit or restarted).';
      rpc.rejectAll(new AppError(stopReason ? 'forbidden' : 'disconnected', why));
      resolveEnded(why);
    },
  });
  try {
    const hello = await rpc.call('bridge.hello', { token, client: options.client, kind: options.kind ?? 'mcp', ...(options.mode ? { mode: options.mode } : {}) }, { timeoutMs: 10_000 });
    return {
      sessionId: hello.sessionId,
      hostVersion: hello.hostVersion,
      call: (method, params, callOptions) => rpc.call(method, params, callOptions),
      ended,
      close: () => wire.close(),
    };
  } catch (error) {
    wire.close();
    throw error;
  }
}


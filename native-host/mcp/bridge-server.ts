import { chmod, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { AppError, toErrorShape } from '../../shared/errors';
import { BridgeChannel, errorResponse, okResponse, parseRequest, type BridgeMethods, type ParamsOf, type ResultOf } from '../../shared/protocol';
import { canConnect } from '../desktop/socket-connect';
import type { Logger } from '../log/logger';
import { MAX_SOCKET_PATH_BYTES, type BridgePaths } from './bridge-paths';
import { ensurePrivateDir, readOrCreateToken, sameToken } from './bridge-security';
import { framedSocket, type FramedSocket } from './framed-socket';

/** What the other end of one connection can be told. */
export interface BridgePeer {
  notify(event: keyof (typeof BridgeChannel)['events'] & string, data: unknown): void;
  /** Ends the connection (the user pressed Stop). */
  close(): void;
}

/** One connected client, as the broker serves it. */
export interface BridgeSession {
  readonly id: string;
  tools(): Promise<ResultOf<BridgeMethods, 'bridge.tools'>>;
  call(params: ParamsOf<BridgeMethods, 'bridge.call'>, signal: AbortSignal): Promise<ResultOf<BridgeMethods, 'bridge.call'>>;
  /** The connection is gone: whatever it started ends. */
  closed(reason: string): void;
}

export interface BridgeBackend {
  hostVersion: string;
  open(hello: ParamsOf<BridgeMethods, 'bridge.hello'>, peer: BridgePeer): BridgeSession;
}

export interface RunningBridge {
  /** Where it listens; undefined when another host already serves this user (a second browser). */
  readonly socket: string | undefined;
  close(): Promise<void>;
}

const HELLO_TIMEOUT_MS = 10_000;

/**
 * Listens on the user's bridge socket for `deputy mcp` and CLI tasks. The socket lives in a folder only the user can
 * enter, the socket itself is 0600, and a client must also present the per-user token before anything else; a wrong
 * token, or no hello within 10 s, closes the connection. A socket another live host already serves is left to it.
 */
export async function startBridgeServer(options: { paths: BridgePaths; backend: BridgeBackend; log: Logger; platform?: NodeJS.Platform }): Promise<RunningBridge> {
  const { paths, backend, log } = options;
  const platform = options.platform ?? process.platform;
  await ensurePrivateDir(paths.dir, platform);
  const token = await readOrCreateToken(paths.tokenFile);
  if (platform !== 'win32' && Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH_BYTES) {
    throw new AppError('bad_config', `The bridge socket path ${paths.socket} is too long for a Unix socket; set DEPUTY_RUN_DIR to a shorter folder.`);
  }
  const connections = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    serveConnection(socket, token, backend, log);
  });
  // Two hosts may start at once (two browsers, or a browser restarting its host): the socket is never removed before
  // listening, so of two racing hosts exactly one listens. The other finds the address in use, sees a live host
  // behind it and leaves the bridge to that one; a socket file with nobody behind it (a host that crashed) is
  // removed and listened on.
  for (let attempt = 0; ; attempt += 1) {
    const error = await listen(server, paths.socket);
    if (!error) break;
    if (error.code !== 'EADDRINUSE' || attempt > 0) {
      throw new AppError(
        'internal',
        `The bridge for deputy mcp cannot listen on ${paths.socket}: ${error.message}. Another program holds it, or the folder is not writable; set DEPUTY_RUN_DIR to another folder, or close the other Deputy host and reload the extension.`,
      );
    }
    if (await canConnect({ path: paths.socket }, 500)) {
      log.warn(
        'another Deputy host (another browser) serves the bridge socket already; deputy mcp reaches the browser whose host started first. To use this browser instead, close the other one, then reload Deputy here.',
        { socket: paths.socket },
      );
      return { socket: undefined, close: () => Promise.resolve() };
    }
    if (platform === 'win32') continue;
    log.info('removing a stale bridge socket left by a host that is gone', { socket: paths.socket });
    await unlink(paths.socket).catch(() => undefined);
  }
  const closeServer = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  if (platform !== 'win32') {
    // Another host starting or stopping beside this one can take the file away between the listen and here: the server
    // must not stay open on a file that is gone (it would keep the process alive after the host stops).
    await chmod(paths.socket, 0o600).catch(async (error: unknown) => {
      await closeServer();
      throw new AppError(
        'internal',
        `The bridge for deputy mcp listened on ${paths.socket}, but its socket file went away at once (another Deputy host starting or stopping beside this one): ${error instanceof Error ? error.message : String(error)}. Reload Deputy to try again.`,
      );
    });
  }
  log.info('bridge listening', { socket: paths.socket });
  return {
    socket: paths.socket,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await closeServer();
      if (platform !== 'win32') await unlink(paths.socket).catch(() => undefined);
    },
  };
}

function listen(server: Server, path: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => resolve(error);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve(undefined);
    });
  });
}

function serveConnection(socket: Socket, token: string, backend: BridgeBackend, log: Logger): void {
  let session: BridgeSession | undefined;
  const calls = new Map<string, AbortController>();
  let wire: FramedSocket | undefined = undefined;
  const helloTimer = setTimeout(() => {
    log.warn('bridge client sent no hello in time');
    wire?.close();
  }, HELLO_TIMEOUT_MS);
  const peer: BridgePeer = {
    notify: (event, data) => wire?.send({ kind: 'event', event, data }),
    close: () => wire?.close(),
  };
  const handle = async (message: unknown): Promise<unknown> => {
    const parsed = parseRequest(BridgeChannel, message);
    if (!parsed.ok) return errorResponse(parsed.id, parsed.error);
    const { id, method, params } = parsed.request;
    try {
      if (method === 'bridge.hello') {
        if (session) throw new AppError('bad_request', 'This connection already said hello.');
        if (!sameToken(params.token, token)) {
          log.warn('bridge client refused: wrong token');
          setTimeout(() => wire?.close(), 50);
          throw new AppError('forbidden', 'The bridge token is wrong: it is read from the token file beside the socket, which only the user who runs the browser can read.');
        }
        clearTimeout(helloTimer);
        session = backend.open(params, peer);
        log.info('bridge client connected', { session: session.id, client: params.client.name, kind: params.kind });
        return okResponse(id, { hostVersion: backend.hostVersion, sessionId: session.id });
      }
      if (!session) throw new AppError('forbidden', 'Say bridge.hello with the token first.');
      if (method === 'bridge.tools') return okResponse(id, await session.tools());
      if (method === 'bridge.cancel') {
        const running = calls.get(params.callId);
        running?.abort(new AppError('cancelled', 'The agent cancelled the call.'));
        return okResponse(id, { cancelled: running !== undefined });
      }
      const controller = new AbortController();
      calls.set(params.callId, controller);
      try {
        return okResponse(id, await session.call(params, controller.signal));
      } finally {
        calls.delete(params.callId);
      }
    } catch (error) {
      return errorResponse(id, toErrorShape(error));
    }
  };
  wire = framedSocket(socket, {
    onMessage: (message) => void handle(message).then((reply) => wire?.send(reply)),
    onBadFrame: (reason) => {
      log.warn('bad bridge frame', { reason });
      wire?.send(errorResponse(null, { code: 'bad_json', message: `Bad frame: ${reason}` }));
    },
    onClose: () => {
      clearTimeout(helloTimer);
      for (const controller of calls.values()) controller.abort(new AppError('cancelled', 'The agent disconnected.'));
      calls.clear();
      if (session) log.info('bridge client disconnected', { session: session.id });
      session?.closed('The agent disconnected.');
    },
  });
}

import { chmod } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { AppError, toErrorShape } from '../../shared/errors';
import { BridgeChannel, errorResponse, okResponse, parseRequest, type BridgeMethods, type ParamsOf, type ResultOf } from '../../shared/protocol';
import { canConnect } from '../desktop/socket-connect';
import type { Logger } from '../log/logger';
import { MAX_SOCKET_PATH_BYTES, type BridgePaths } from './bridge-paths';
import { ensurePrivateDir, readOrCreateToken, sameToken } from './bridge-security';
import { placeSocketFile, privateSocketPath, removeSocketFileIfOurs, socketFileId, type SocketFileId } from './bridge-socket-file';
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
  const connections = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    serveConnection(socket, token, backend, log);
  });
  const closeServer = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  const listening = platform === 'win32' ? undefined : await listenPrivately(server, paths.socket, closeServer);
  if (listening === undefined) {
    const deferred = await listenOnPipe(server, paths.socket, log);
    if (deferred) return deferred;
  } else {
    const onStale = (): void => log.info('removing a stale bridge socket left by a host that is gone', { socket: paths.socket });
    const placed = await placeSocketFile(listening.path, paths.socket, onStale).catch(async (error: unknown) => {
      await closeServer();
      throw cannotListen(paths.socket, error instanceof Error ? error : new Error(String(error)));
    });
    if (placed === 'taken') {
      log.warn(ANOTHER_HOST, { socket: paths.socket });
      await closeServer();
      return { socket: undefined, close: () => Promise.resolve() };
    }
  }
  log.info('bridge listening', { socket: paths.socket });
  return {
    socket: paths.socket,
    close: async () => {
      // The public name goes first, while this server still answers on it, so no other host can take it over as stale
      // in between; a newer host's socket there (this one's file was removed and the name taken meanwhile) stays.
      if (listening !== undefined) await removeSocketFileIfOurs(paths.socket, listening.id);
      for (const socket of connections) socket.destroy();
      await closeServer();
    },
  };
}

const ANOTHER_HOST =
  'another Deputy host (another browser) serves the bridge socket already; deputy mcp reaches the browser whose host started first. To use this browser instead, close the other one, then reload Deputy here.';

/**
 * Listens on a private name beside the public socket (bridge-socket-file.ts says why), made 0600 before anyone can reach
 * it under the public name. Returns that name and which file it is.
 */
async function listenPrivately(server: Server, socket: string, closeServer: () => Promise<void>): Promise<{ path: string; id: SocketFileId }> {
  for (let attempt = 0; ; attempt += 1) {
    const path = privateSocketPath(socket);
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
      throw new AppError('bad_config', `The bridge socket path ${socket} is too long for a Unix socket; set DEPUTY_RUN_DIR to a shorter folder.`);
    }
    const error = await listen(server, path);
    // A private name in use already (left by a host that crashed, by chance): another one.
    if (error?.code === 'EADDRINUSE' && attempt < 3) continue;
    if (error) throw cannotListen(socket, error);
    // Only this host uses the private name, but a user or a cleaner of the run folder can still remove the file, and the
    // server must not stay open on a file that is gone (it would keep the process alive after the host stops).
    const id = await chmod(path, 0o600).then(
      () => socketFileId(path),
      () => undefined,
    );
    if (id !== undefined) return { path, id };
    await closeServer();
    throw new AppError('internal', `The bridge for deputy mcp listened on ${path}, but its socket file went away at once (removed by hand, or by a cleaner of the run folder). Reload Deputy to try again.`);
  }
}

/**
 * Windows: a named pipe has no file to link. The pipe is never removed before listening, so of two hosts starting at
 * once exactly one listens, and the other leaves the bridge to it: that other one's bridge is returned.
 */
async function listenOnPipe(server: Server, pipe: string, log: Logger): Promise<RunningBridge | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    const error = await listen(server, pipe);
    if (!error) return undefined;
    if (error.code !== 'EADDRINUSE' || attempt > 0) throw cannotListen(pipe, error);
    if (await canConnect({ path: pipe }, 500)) {
      log.warn(ANOTHER_HOST, { socket: pipe });
      return { socket: undefined, close: () => Promise.resolve() };
    }
  }
}

function cannotListen(socket: string, error: Error): AppError {
  return new AppError(
    'internal',
    `The bridge for deputy mcp cannot listen on ${socket}: ${error.message}. Another program holds it, or the folder is not writable; set DEPUTY_RUN_DIR to another folder, or close the other Deputy host and reload the extension.`,
  );
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

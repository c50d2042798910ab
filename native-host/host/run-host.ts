import { MAX_MESSAGE_FROM_BROWSER_BYTES, MAX_MESSAGE_TO_BROWSER_BYTES } from '../../shared/constants';
import { AppError, toErrorShape } from '../../shared/errors';
import { Chunk, ChunkJoiner, HostChannel, HostRequestChannel, Response, RpcClient, errorResponse } from '../../shared/protocol';
import { FrameDecoder, type DecodedItem } from '../framing/frame-decoder';
import { encodeMessage } from '../framing/frame-encoder';
import type { Logger } from '../log/logger';
import type { EarlyHello, EarlyInput } from './early-hello';
import type { ExtensionLink } from './extension-link';
import { hostHandlers, type HostInfo } from './host-handlers';
import type { ProcessRegistry } from './process-registry';
import type { LateBrowserLink } from '../mcp/browser-link';
import { createMessageRouter, parseBody } from './router';

export interface HostIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

export interface RunHostOptions {
  io: HostIo;
  log: Logger;
  info: HostInfo;
  processes: ProcessRegistry;
  /** How long children get to stop before SIGKILL, and in-flight replies get to finish. */
  graceMs?: number;
  maxInboundBytes?: number;
  maxOutboundBytes?: number;
  /** Bound to this connection so the host can ask the extension (page tools, approvals for connected agents). */
  link?: LateBrowserLink;
  /** Requests the host sends to the extension (a web form to fill), answered on stdin. */
  extension?: ExtensionLink;
  /** What was read (and the hello answered) while the host's code loaded: runHost takes over from it. */
  early?: EarlyHello;
}

export type StopReason = 'stdin-end' | 'corrupt-length' | 'signal' | 'stdout-closed';

export interface RunningHost {
  /** Resolves once the host has stopped reading, answered what it could, and ended its children. */
  stopped: Promise<StopReason>;
  stop(reason: StopReason): void;
}

/**
 * The host's main loop: frames in from stdin, one reply out per request on stdout. Nothing but whole frames is ever
 * written to stdout. It ends when stdin ends (the browser closed the port), on a corrupt length, or when asked.
 */
export function runHost(options: RunHostOptions): RunningHost {
  const { io, log, processes } = options;
  const graceMs = options.graceMs ?? 3000;
  const maxOutbound = options.maxOutboundBytes ?? MAX_MESSAGE_TO_BROWSER_BYTES;
  // Taken over here, before any listener below, so that no chunk of stdin falls between the two readers.
  const early: EarlyInput | undefined = options.early?.handOver();
  const decoder = early?.decoder ?? new FrameDecoder(options.maxInboundBytes ?? MAX_MESSAGE_FROM_BROWSER_BYTES);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let outputOpen = true;
  let resolveStopped: (reason: StopReason) => void = () => undefined;
  const stopped = new Promise<StopReason>((resolve) => (resolveStopped = resolve));

  const send = (message: unknown): void => {
    if (!outputOpen) return;
    let frames: Buffer[];
    try {
      frames = encodeMessage(message, maxOutbound);
    } catch (error) {
      // Too many chunks, or a result JSON cannot hold (a BigInt, a cycle). The caller still gets an answer, so its
      // request fails at once instead of waiting for its timeout.
      const shape = toErrorShape(error);
      log.error('reply could not be encoded', { code: shape.code, error: shape.message });
      const id = replyId(message);
      if (id === undefined) return;
      const code = shape.code === 'too_large' ? 'too_large' : 'internal';
      frames = encodeMessage(errorResponse(id, { code, message: `The reply could not be sent: ${shape.message}` }), maxOutbound);
    }
    for (const frame of frames) io.stdout.write(frame);
  };

  const emit = (event: string, data: unknown): void => send({ kind: 'event', event, data });
  const routerLog = log.child('router');
  const route = createMessageRouter(HostChannel, hostHandlers({ ...options.info, onHello: (client) => options.extension?.setClient(client) }), { log: routerLog, emit });
  // The host asks the extension too (a connected agent's page tools and approvals): its answers come back on stdin.
  const browser = new RpcClient(HostRequestChannel, { send, timeoutMs: 60_000, idPrefix: 'host' });
  options.link?.attach(browser, emit);
  // A web form for a fix loop is asked of the extension the same way, by its own link.
  options.extension?.attach(send);
  const joiner = new ChunkJoiner(() => Date.now());

  const dispatch = (message: unknown): void => {
    if (browser.receive(message) || options.extension?.receive(message)) return;
    if (Response.safeParse(message).success) {
      // An answer to a request that timed out or was never made: nothing waits for it. (A malformed one is a bad
      // message like any other, answered below.)
      log.warn('response to no pending request');
      return;
    }
    const chunk = Chunk.safeParse(message);
    if (chunk.success) {
      let whole: unknown;
      try {
        whole = joiner.add(chunk.data);
      } catch (error) {
        log.warn('bad chunk stream', { error: String(error) });
        return;
      }
      if (whole !== undefined) dispatch(whole);
      return;
    }
    const task = route(message).then(send, (error: unknown) => log.error('router crashed', { error: String(error) }));
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };

  const onData = (chunk: Buffer | string): void => onItems(decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  const onItems = (items: DecodedItem[]): void => {
    for (const item of items) {
      if (item.type === 'corrupt') {
        log.error(`closing connection: ${item.reason}`);
        stop('corrupt-length');
        return;
      }
      const body = parseBody(item.body);
      if (!body.ok) {
        routerLog.warn('bad json', { bytes: item.body.length, error: body.error.slice(0, 120) });
        send(errorResponse(null, { code: 'bad_json', message: `Frame of ${item.body.length} bytes is not valid UTF-8 JSON; each frame must hold one JSON message` }));
        continue;
      }
      dispatch(body.value);
    }
  };

  const onEnd = (): void => {
    if (decoder.pendingBytes > 0) log.warn('stdin ended inside a frame; its bytes are dropped', { bytes: decoder.pendingBytes });
    stop('stdin-end');
  };
  const onInputError = (error: NodeJS.ErrnoException): void => {
    log.warn('stdin failed', { code: error.code });
    stop('stdin-end');
  };
  io.stdin.on('data', onData);
  io.stdin.on('end', onEnd);
  io.stdin.on('error', onInputError);
  const onOutputError = (error: NodeJS.ErrnoException): void => {
    // EPIPE: the browser is gone. Nothing more can be said, so stop quietly.
    outputOpen = false;
    log.warn('stdout closed', { code: error.code });
    stop('stdout-closed');
  };
  io.stdout.on('error', onOutputError);
  // What came in while the host's code loaded is handled as if it came now, in the order it came.
  if (early) {
    if (early.client) options.extension?.setClient(early.client);
    if (early.outputError) onOutputError(early.outputError);
    else onItems(early.items);
    if (early.inputError) onInputError(early.inputError);
    else if (early.ended) onEnd();
  }

  function stop(reason: StopReason): void {
    if (stopping) return;
    stopping = true;
    options.extension?.close();
    io.stdin.off('data', onData);
    // Stop reading for good: a stdin left flowing would keep the process alive after a corrupt length or a signal.
    io.stdin.pause();
    log.info('stopping', { reason, inFlight: inFlight.size, children: processes.size });
    options.link?.detach(new AppError('disconnected', 'The browser closed its connection to the host.'));
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const drain = Promise.race([
      Promise.allSettled([...inFlight]),
      new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs))),
    ]);
    void drain
      .then(() => {
        // A timer left running would hold the process open for the whole grace period after a clean stop.
        clearTimeout(graceTimer);
        return processes.terminateAll(graceMs);
      })
      .then(() => resolveStopped(reason));
  }

  return { stopped, stop };
}

function replyId(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('kind' in message) || !('id' in message)) return undefined;
  return message.kind === 'response' && typeof message.id === 'string' ? message.id : undefined;
}

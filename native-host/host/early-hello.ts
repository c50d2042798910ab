import { FrameDecoder, type DecodedItem } from '../framing/frame-decoder';
import { encodeFrame } from '../framing/frame-single';
import { readHello } from './hello-check';
import { helloResult, type HelloFacts } from './hello-result';
import { parseBody } from './parse-body';

/**
 * What the host read before its code was loaded, handed to runHost: the decoder (with any part of a frame under way),
 * the frames not yet answered in the order they came, and how the streams ended if they did.
 */
export interface EarlyInput {
  decoder: FrameDecoder;
  items: DecodedItem[];
  /** Who said hello (the answer is already sent): the host's extension link must know. */
  client: 'extension' | 'cli' | 'test' | undefined;
  ended: boolean;
  inputError: NodeJS.ErrnoException | undefined;
  outputError: NodeJS.ErrnoException | undefined;
}

export interface EarlyHello {
  /** Stops reading and returns what was read; the caller attaches its own listeners in the same tick. */
  handOver(): EarlyInput;
}

/**
 * The browser gives a starting host a few seconds to answer its first message, and a busy machine can take longer than
 * that to load the host's code (the desktop, fix-loop, shell and MCP services and their protocols). So the host starts
 * reading stdin before it loads them, and answers hello itself: checks by hand that accept no more than the full
 * router's schemas (hello-check.ts; no zod is loaded before the answer), the same answer. Anything else, and everything after it, waits in order for runHost;
 * a hello that does not parse waits too, so the full router gives its usual error.
 */
export function greetEarly(
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
  facts: HelloFacts,
  options: { maxInboundBytes: number; maxOutboundBytes: number },
): EarlyHello {
  const decoder = new FrameDecoder(options.maxInboundBytes);
  const items: DecodedItem[] = [];
  const state: Omit<EarlyInput, 'decoder' | 'items'> = {
    client: undefined,
    ended: false,
    inputError: undefined,
    outputError: undefined,
  };

  const answered = (item: DecodedItem): boolean => {
    if (items.length > 0 || item.type !== 'frame' || state.outputError) return false;
    const body = parseBody(item.body);
    if (!body.ok) return false;
    const hello = readHello(body.value);
    if (!hello) return false;
    const json = JSON.stringify({ kind: 'response', id: hello.id, ok: true, result: helloResult(facts, hello.params) });
    // The answer is a few hundred bytes; one too large for a frame is left to the router, which splits it into chunks.
    if (Buffer.byteLength(json, 'utf8') > options.maxOutboundBytes) return false;
    state.client = hello.params.client;
    io.stdout.write(encodeFrame(json));
    return true;
  };
  const onData = (chunk: Buffer | string): void => {
    for (const item of decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if (!answered(item)) items.push(item);
    }
  };
  const onEnd = (): void => void (state.ended = true);
  const onInputError = (error: NodeJS.ErrnoException): void => void (state.inputError = error);
  const onOutputError = (error: NodeJS.ErrnoException): void => void (state.outputError = error);
  io.stdin.on('data', onData);
  io.stdin.on('end', onEnd);
  io.stdin.on('error', onInputError);
  io.stdout.on('error', onOutputError);
  return {
    handOver() {
      io.stdin.off('data', onData);
      io.stdin.off('end', onEnd);
      io.stdin.off('error', onInputError);
      io.stdout.off('error', onOutputError);
      return { decoder, items: items.splice(0), ...state };
    },
  };
}

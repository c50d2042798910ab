import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { EarlyMcpReader } from './early-initialize';

/** A line longer than this is refused: no MCP message is that large, and the buffer must not grow without bound. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * MCP over stdio (one JSON-RPC message per line), answering bad input as JSON-RPC 2.0 requires: a line that is not
 * JSON gets a parse error (-32700) and one that is JSON but not a JSON-RPC message an invalid-request error (-32600),
 * both naming what was wrong, and the server goes on reading. The SDK's own transport only reports such lines to the
 * server's log, which leaves a client waiting for an answer that never comes.
 */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = Buffer.alloc(0);
  private closed = false;
  /** The `initialize` the early reader answered: the server's answer to it is not sent again. */
  private answeredId: string | number | undefined;

  /** `early`: the reader that took stdin before the server was loaded (early-initialize.ts); this goes on from it. */
  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly early?: EarlyMcpReader,
  ) {}

  start(): Promise<void> {
    const early = this.early?.handOver();
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onEnd);
    if (early) {
      this.answeredId = early.answeredId;
      if (early.bytes.length > 0) this.onData(early.bytes);
      if (early.ended) void this.close();
    }
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.answeredId !== undefined && 'id' in message && message.id === this.answeredId && !('method' in message)) {
      this.answeredId = undefined;
      // The early answer said yes; an SDK that says otherwise means the early check is wider than the SDK's schema.
      if ('error' in message) this.onerror?.(new Error(`the early answer to initialize was sent, but the MCP server refused it: ${message.error.message}`));
      return Promise.resolve();
    }
    return this.write(message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onEnd);
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onEnd = (): void => void this.close();

  private readonly onData = (chunk: Buffer | string): void => {
    this.buffer = Buffer.concat([this.buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    for (;;) {
      const end = this.buffer.indexOf(0x0a);
      if (end === -1) break;
      const line = this.buffer.subarray(0, end).toString('utf8').replace(/\r$/, '');
      this.buffer = this.buffer.subarray(end + 1);
      if (line.trim() !== '') this.readLine(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0);
      void this.reject(null, -32700, `Parse error: a line longer than ${MAX_LINE_BYTES} bytes was dropped; send one JSON-RPC message per line.`);
    }
  };

  private readLine(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      void this.reject(null, -32700, `Parse error: the line is not JSON (${error instanceof Error ? error.message : String(error)}); send one JSON-RPC 2.0 message per line.`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = typeof json === 'object' && json !== null && 'id' in json && (typeof json.id === 'string' || typeof json.id === 'number') ? json.id : null;
      void this.reject(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0", and a "method" or a "result"/"error" with an "id").');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reject(id: string | number | null, code: number, message: string): Promise<void> {
    this.onerror?.(new Error(message));
    return this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }
}

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request of the agent to its model, as received: the chat messages the model would read. */
export interface ModelRequest {
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
}

/** What the scripted "model" answers: one tool call. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A local server that speaks OpenAI's chat-completions wire format (not streamed) and hands each request to a
 * scripted solution, which answers with its next tool call when it has decided. Deputy's agent loop talks to it as to
 * any OpenAI-compatible model server, so the solution is sent exactly what a model would be sent.
 */
export class ModelBridge {
  private pending: { resolve: (request: ModelRequest) => void; reject: (error: Error) => void } | null = null;
  private inbox: ModelRequest[] = [];
  private answer: ((call: ToolCall) => void) | null = null;
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<ModelBridge> {
    const holder: { bridge?: ModelBridge } = {};
    const server = createServer((req, res) => {
      void (async () => {
        const path = (req.url ?? '/').replace(/\?.*$/, '');
        if (req.method === 'GET' && path.endsWith('/models')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'deputy-eval' }] }));
          return;
        }
        const json = JSON.parse(await body(req)) as ModelRequest & { model?: string };
        const bridge = holder.bridge;
        const call = await bridge?.receive(json);
        if (!call) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'no scripted answer', type: 'server_error' } }));
          return;
        }
        const seq = (bridge ? (bridge.seq += 1) : 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${seq}`,
            object: 'chat.completion',
            created: 1_700_000_000 + seq,
            model: json.model ?? 'scripted',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${seq}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] },
                finish_reason: 'tool_calls',
              },
            ],
            usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
          }),
        );
      })().catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const bridge = new ModelBridge(server, (server.address() as AddressInfo).port);
    holder.bridge = bridge;
    return bridge;
  }

  /** Waits for the scripted solution's answer to this request. */
  private receive(request: ModelRequest): Promise<ToolCall> {
    return new Promise((resolve) => {
      this.answer = resolve;
      if (this.pending) {
        this.pending.resolve(request);
        this.pending = null;
      } else this.inbox.push(request);
    });
  }

  /** The agent's next request to its model. */
  next(): Promise<ModelRequest> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
  }

  /** Answers the request in hand with a tool call. */
  reply(call: ToolCall): void {
    const answer = this.answer;
    this.answer = null;
    answer?.(call);
  }

  /** Gives up on a request no one will send (the task ended). */
  abandon(reason: string): void {
    this.pending?.reject(new Error(reason));
    this.pending = null;
    this.inbox = [];
    this.answer = null;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

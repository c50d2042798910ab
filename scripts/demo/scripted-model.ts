import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentView, textOf } from '../../tests/fixtures/fake-provider/prompt-view';
import type { RecordedRequest } from '../../tests/fixtures/fake-provider/scripted-reply';

/**
 * A scripted stand-in for a model, used by `npm run demo` when no API key is set. It is NOT AI: it follows a fixed
 * script for the demo shop's task, finding each element's number by its name in the snapshot Deputy sends, and it
 * answers over the OpenAI chat-completions wire format (streaming included), so the real provider client, agent loop,
 * policy gate and page actions all run exactly as they would with a real model.
 */
export const SCRIPTED_MODEL_NAME = 'deputy-scripted-demo (not AI)';

interface Step {
  tool: string;
  /** Arguments, given the latest snapshot; null means the element was not found. */
  args(snapshot: string): Record<string, unknown> | null;
  /** What the script looks for, for the message when the page does not have it. */
  looksFor: string;
}

const refOf = (snapshot: string, role: string, name: RegExp): number | null => {
  for (const match of snapshot.matchAll(/\[(\d+)\] ([\w-]+) "([^"]*)"/g)) {
    if (match[2] === role && name.test(match[3] ?? '')) return Number(match[1]);
  }
  return null;
};
const byRef = (role: string, name: RegExp, extra: Record<string, unknown> = {}) => (snapshot: string) => {
  const ref = refOf(snapshot, role, name);
  return ref === null ? null : { ref, ...extra };
};

/** The demo task: put the cheapest headphones in the cart, then save the account details. */
const SCRIPT: Step[] = [
  {
    tool: 'update_plan',
    looksFor: 'nothing',
    args: () => ({
      explanation: 'Scripted demo plan.',
      steps: [
        { step: 'Add the cheapest headphones (Pocket Buds, $39) to the cart', status: 'in_progress' },
        { step: 'Open the account page', status: 'pending' },
        { step: 'Fill in and save the account details', status: 'pending' },
      ],
    }),
  },
  { tool: 'click', looksFor: 'the "Add Pocket Buds earphones to cart" button', args: byRef('button', /^Add Pocket Buds/) },
  { tool: 'click', looksFor: 'the "Account" link', args: byRef('link', /^Account$/) },
  { tool: 'type', looksFor: 'the "Full name" box', args: byRef('textbox', /^Full name/, { text: 'Ada Lovelace' }) },
  { tool: 'type', looksFor: 'the "Email" box', args: byRef('textbox', /^Email/, { text: 'ada@example.org' }) },
  { tool: 'select', looksFor: 'the "Country" list', args: byRef('combobox', /^Country/, { values: ['United Kingdom'] }) },
  { tool: 'click', looksFor: 'the "Save details" button', args: byRef('button', /^Save details/) },
  {
    tool: 'done',
    looksFor: 'nothing',
    args: () => ({ success: true, summary: 'Added Pocket Buds earphones ($39, the cheapest) to the cart and saved the account details.' }),
  },
];

interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content?: unknown; tool_calls?: unknown[] }[];
}

/** Decides the next call: the script's next step after the calls already made, resolved against the latest page. */
export function nextCall(request: ChatRequest): { name: string; arguments: string } {
  const messages = request.messages ?? [];
  const made = messages.filter((m) => m.role === 'assistant').reduce((sum, m) => sum + (m.tool_calls?.length ?? 0), 0);
  // The latest page as a model reads it: a page sent as what changed (the diff page view) is read with its base.
  const snapshot = currentView({ json: request, path: '/v1/chat/completions' } as RecordedRequest);
  const step = SCRIPT[Math.min(made, SCRIPT.length - 1)] as Step;
  // Saving an account's email asks the user: when they said no, the summary says what was not done.
  const refused = messages.some((m) => m.role === 'tool' && /did not approve/.test(textOf(m.content)));
  if (step.tool === 'done' && refused) {
    return {
      name: 'done',
      arguments: JSON.stringify({ success: false, summary: 'Added Pocket Buds earphones ($39, the cheapest) to the cart. Saving the account details was not approved, so they were not saved.' }),
    };
  }
  const args = step.args(snapshot);
  if (args === null) {
    return {
      name: 'done',
      arguments: JSON.stringify({ success: false, summary: `The scripted demo model could not find ${step.looksFor} on this page.` }),
    };
  }
  return { name: step.tool, arguments: JSON.stringify(args) };
}

function reply(res: ServerResponse, request: ChatRequest, sequence: number): void {
  const call = nextCall(request);
  const id = `scripted-${sequence}`;
  const toolCall = { id: `call_${sequence}`, type: 'function', function: call };
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const base = { id, created: Math.floor(Date.now() / 1000), model: SCRIPTED_MODEL_NAME };
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish_reason: 'tool_calls' }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
    res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
  };
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  chunk([{ index: 0, delta: { tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
  chunk([], { usage });
  res.end('data: [DONE]\n\n');
}

export interface ScriptedModel {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  let sequence = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Only chat completions are scripted.', type: 'not_found' } }));
        return;
      }
      try {
        sequence += 1;
        reply(res, JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest, sequence);
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error), type: 'invalid_request_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

import type { RecordedRequest } from '../../fixtures/fake-provider/fake-provider-server';

/** The text of every message in a provider request (OpenAI or Anthropic shape), newest last. */
function messageTexts(request: RecordedRequest): string[] {
  const body = request.json as { messages?: { role: string; content?: unknown }[] } | undefined;
  return (body?.messages ?? []).map((message) => {
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      return message.content
        .map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : ''))
        .join('\n');
    }
    return '';
  });
}

/**
 * Finds an element's number in the latest snapshot the model was sent, by role and name, the way a model reads
 * `[12] button "Add to cart"`. Throws when it is not there, so a test fails at the step that went wrong.
 */
export function refIn(request: RecordedRequest, role: string, name: RegExp): number {
  const texts = messageTexts(request).filter((text) => /\[\d+\] /.test(text));
  const latest = texts.at(-1) ?? '';
  for (const match of latest.matchAll(/\[(\d+)\] ([\w-]+) "([^"]*)"/g)) {
    if (match[2] === role && name.test(match[3] ?? '')) return Number(match[1]);
  }
  throw new Error(`No ${role} named ${String(name)} in the snapshot the model was sent:\n${latest.slice(0, 2000)}`);
}

export function call(name: string, args: Record<string, unknown>) {
  return { toolCalls: [{ name, arguments: args }] };
}

import type { RecordedRequest } from '../../fixtures/fake-provider/fake-provider-server';
import { currentView } from '../../fixtures/fake-provider/prompt-view';

/** What the model was sent as this turn's view: the current page with the last step's verification and any notice. */
export function lastMessage(request: RecordedRequest): string {
  return currentView(request);
}

/**
 * Finds an element's number in the latest snapshot the model was sent, by role and name, the way a model reads
 * `[12] button "Add to cart"`. Throws when it is not there, so a test fails at the step that went wrong.
 */
export function refIn(request: RecordedRequest, role: string, name: RegExp): number {
  const latest = currentView(request);
  // An unnamed control is written without a name (`[4] textbox unnamed`): it matches an empty name.
  for (const match of latest.matchAll(/\[(\d+)\] ([\w-]+)(?: "([^"]*)"| (?=unnamed))/g)) {
    if (match[2] === role && name.test(match[3] ?? '')) return Number(match[1]);
  }
  throw new Error(`No ${role} named ${String(name)} in the snapshot the model was sent:\n${latest.slice(0, 2000)}`);
}

export function call(name: string, args: Record<string, unknown>) {
  return { toolCalls: [{ name, arguments: args }] };
}

/** The names of the tool calls the model already made in this conversation (OpenAI or Anthropic shape). */
function previousCalls(request: RecordedRequest): string[] {
  const body = request.json as { messages?: { role: string; content?: unknown; tool_calls?: { function?: { name?: string } }[] }[] } | undefined;
  return (body?.messages ?? [])
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => [
      ...(message.tool_calls ?? []).map((toolCall) => toolCall.function?.name ?? ''),
      ...(Array.isArray(message.content)
        ? message.content.flatMap((part: unknown) =>
            typeof part === 'object' && part !== null && 'type' in part && part.type === 'tool_use' && 'name' in part ? [String(part.name)] : [],
          )
        : []),
    ]);
}

export type ScriptStep = (request: RecordedRequest) => ReturnType<typeof call>;

/**
 * A scripted model that plays the steps in order, the way a patient model would: when the element a step needs is
 * not on the page it was sent yet (a navigation still loading on a busy machine), it answers `wait` and tries the same
 * step on the next turn. Enqueue the returned script once per turn the task may take.
 */
export function playSteps(steps: ScriptStep[]): (request: RecordedRequest) => ReturnType<typeof call> {
  return (request) => {
    const index = previousCalls(request).filter((name) => name !== 'wait').length;
    const step = steps[Math.min(index, steps.length - 1)];
    if (!step) throw new Error('playSteps needs at least one step');
    try {
      return step(request);
    } catch {
      return call('wait', { seconds: 0.5 });
    }
  };
}

import type { FakeProvider, RecordedRequest, ScriptedMessage } from '../../fixtures/fake-provider/fake-provider-server';
import { currentView } from '../../fixtures/fake-provider/prompt-view';

/** One scripted tool call, as the model answers it. */
export function call(name: string, args: Record<string, unknown>): ScriptedMessage {
  return { toolCalls: [{ name, arguments: args }] };
}

export interface ChatStep {
  /** The step runs once the chat the model was sent shows this; until then the model waits for support. */
  ready?: RegExp;
  /** The call, or how to make it from the request (to find an element's number in the page the model was sent). */
  reply: ScriptedMessage | ((request: RecordedRequest) => ScriptedMessage);
}

/** The written escalation Deputy drafted, as the model was sent it: the note's subject and message. */
export function draftInView(request: RecordedRequest): { subject: string; body: string } {
  const view = currentView(request);
  const subject = /\nSubject: (.*)\n/.exec(view)?.[1];
  const body = /\nMessage:\n([\s\S]*?Thank you\.)\]/.exec(view)?.[1];
  if (subject === undefined || body === undefined) throw new Error(`No draft in what the model was sent:\n${view.slice(0, 3000)}`);
  return { subject, body };
}

/** The tool calls the model has made so far in the conversation a request carries. */
export function callsSoFar(request: RecordedRequest): string[] {
  const body = request.json as { messages?: { role: string; tool_calls?: { function?: { name?: string } }[] }[] } | undefined;
  return (body?.messages ?? []).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function?.name ?? '') : []));
}

/**
 * A patient scripted model for a chat: it plays the steps in order, and when the chat it was sent does not show what
 * the next step answers yet (support still typing on a busy machine), it calls chat_wait and tries again.
 */
export function playChat(fake: FakeProvider, steps: ChatStep[], turns = 24): void {
  const script = (request: RecordedRequest): ScriptedMessage => {
    const index = callsSoFar(request).filter((name) => name !== 'chat_wait').length;
    const step = steps[Math.min(index, steps.length - 1)];
    if (!step) throw new Error('playChat needs steps');
    if (step.ready && !step.ready.test(currentView(request))) return call('chat_wait', { seconds: 5 });
    return typeof step.reply === 'function' ? step.reply(request) : step.reply;
  };
  for (let i = 0; i < turns; i += 1) fake.enqueue(script);
}

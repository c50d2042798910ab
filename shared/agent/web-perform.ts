import { z } from 'zod';
import type { ActionOutcome } from './environment';
import type { ToolContext, ToolResult } from './tool';
import { wrapUntrusted } from './untrusted';
import type { WebAction, WebEnvironment } from './web-environment';

export type WebContext = ToolContext<WebEnvironment>;

/** The ref field every web tool that acts on an element takes. */
export const ref = z.number().int().nonnegative().describe('The number in brackets before the element in the page snapshot, e.g. 14 for [14].');

/** Runs one web action and turns its outcome into the tool result the model reads. */
export async function perform(action: WebAction, context: WebContext): Promise<ToolResult> {
  const outcome: ActionOutcome = await context.environment.act(action, { signal: context.signal });
  const evidence = outcome.evidence ?? [];
  // Evidence quotes the page (a new heading, the text found), so it is labelled untrusted like the snapshot itself.
  const content =
    evidence.length > 0
      ? `${outcome.message}\n${wrapUntrusted('untrusted_output', { from: action.kind }, evidence.map((line) => `- ${line}`).join('\n'))}`
      : outcome.message;
  return { ok: outcome.ok, content, changed: outcome.changed, evidence };
}

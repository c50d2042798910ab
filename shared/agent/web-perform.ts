import { z } from 'zod';
import { describeBlocked } from './egress';
import type { ActionOutcome } from './environment';
import type { ToolContext, ToolResult } from './tool';
import { wrapUntrusted } from './untrusted';
import type { WebAction, WebEnvironment } from './web-environment';

export type WebContext = ToolContext<WebEnvironment>;

/**
 * The ref field every web tool that acts on an element takes. Its description goes out with a dozen tools in every
 * request, so it is short: the system prompt's snapshot legend says what the numbers are.
 */
export const ref = z.number().int().nonnegative().describe("The element's number.");

/**
 * A request the egress guard held while the action ran: the user decides; approved, it is sent again, refused, the tab
 * is put back. Either way the model is told plainly what happened.
 */
async function settleBlocked(outcome: ActionOutcome, context: WebContext): Promise<ActionOutcome> {
  const blocked = outcome.blocked;
  const environment = context.environment;
  if (!blocked) return outcome;
  const held = describeBlocked(blocked);
  const answer = context.approveEgress ? await context.approveEgress(blocked) : { approved: false };
  const options = context.signal ? { signal: context.signal } : {};
  const after = environment.resolveBlocked ? await environment.resolveBlocked(blocked, answer.approved, options) : null;
  if (answer.approved) {
    return {
      ok: after?.ok ?? false,
      changed: true,
      message: `${outcome.message}. It made ${held}, which Deputy's egress guard held; the user approved it and it was sent again: ${after?.message ?? 'it could not be sent again'}`,
      evidence: after?.evidence ?? [],
    };
  }
  return {
    ok: false,
    changed: outcome.changed || (after?.changed ?? false),
    message: `${outcome.message}, but it made ${held}, outside the approved sites. Deputy's egress guard held it and the user did not approve it, so nothing was sent${after ? `; ${after.message}` : ''}. Do not try to reach the same result another way.`,
    evidence: after?.evidence ?? [],
  };
}

/** Runs one web action and turns its outcome into the tool result the model reads. */
export async function perform(action: WebAction, context: WebContext): Promise<ToolResult> {
  const outcome: ActionOutcome = await settleBlocked(await context.environment.act(action, { signal: context.signal }), context);
  const evidence = outcome.evidence ?? [];
  // Evidence quotes the page (a new heading, the text found), so it is labelled untrusted like the snapshot itself.
  const content =
    evidence.length > 0
      ? `${outcome.message}\n${wrapUntrusted('untrusted_output', { from: action.kind }, evidence.map((line) => `- ${line}`).join('\n'))}`
      : outcome.message;
  return { ok: outcome.ok, content, changed: outcome.changed, evidence, ...(outcome.timings ? { timings: outcome.timings } : {}) };
}

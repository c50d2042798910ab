import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../shared/agent/approval';
import type { McpActivity, McpApprovalParams, McpSessionRef } from '../../shared/protocol';
import type { BrowserLink } from './browser-link';

/** How long a host-side step waits for the user's answer in the side panel. */
const APPROVAL_TIMEOUT_MS = 6 * 60 * 60_000;

type Activity = (change: Pick<McpActivity, 'callId' | 'tool' | 'text' | 'state'>) => void;

/** The user's answer to a card that releases personal data: the values come only with an approval. */
export interface RevealAnswer extends ApprovalAnswer {
  values: Record<string, string>;
}

/** Asks the user to let the values behind `names` go to `destination`; the answer carries them only when approved. */
export type Revealer = (request: ApprovalRequest, names: string[], destination: string, signal?: AbortSignal) => Promise<RevealAnswer>;

/**
 * One card in the side panel for a host-side step of a connected agent, with the agent's name on it: the step shows as
 * awaiting approval in the log, the agent leaving or cancelling withdraws the card, and a browser that cannot be asked
 * means no.
 */
async function askInPanel<T extends ApprovalAnswer>(
  link: BrowserLink,
  session: McpSessionRef,
  activity: Activity,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
  ask: (params: McpApprovalParams) => Promise<T>,
  refused: (note: string) => T,
): Promise<T> {
  activity({ callId: request.callId, tool: request.tool, text: request.intent, state: 'awaiting_approval' });
  const onAbort = (): void => void link.call('mcp.cancel', { sessionId: session.id, callId: request.callId, reason: 'The agent cancelled the call.' }).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await ask({
      session,
      callId: request.callId,
      tool: request.tool,
      intent: request.intent,
      reason: request.reason,
      classes: request.classes,
      url: request.url,
      ...(request.alwaysAllowPrefix === undefined ? {} : { alwaysAllowPrefix: request.alwaysAllowPrefix }),
    });
  } catch (error) {
    return refused(`Deputy could not ask the user (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Asks the user in the side panel about a host-side step of a connected agent (a shell command, desktop input). */
export function panelApprover(link: BrowserLink, session: McpSessionRef, activity: Activity): Approver {
  return (request, signal) =>
    askInPanel(
      link,
      session,
      activity,
      request,
      signal,
      async (params): Promise<ApprovalAnswer> => {
        const answer = await link.call('mcp.approve', params, { timeoutMs: APPROVAL_TIMEOUT_MS });
        return { approved: answer.approved, ...(answer.note ? { note: answer.note } : {}), ...(answer.alwaysAllowPrefix ? { alwaysAllowPrefix: answer.alwaysAllowPrefix } : {}) };
      },
      (note) => ({ approved: false, note }),
    );
}

/**
 * Asks the user in the side panel to let a connected agent's step use their personal data (typing it on the desktop):
 * the extension, which holds the data, shows the card and answers with the values only when the user approves. No
 * standing approval is offered: each use asks.
 */
export function revealer(link: BrowserLink, session: McpSessionRef, activity: Activity): Revealer {
  return ({ alwaysAllowPrefix: _standing, ...request }, names, destination, signal) =>
    askInPanel(
      link,
      session,
      activity,
      request,
      signal,
      async (params): Promise<RevealAnswer> => {
        const answer = await link.call('mcp.reveal', { ...params, names, destination }, { timeoutMs: APPROVAL_TIMEOUT_MS });
        const missing = names.filter((name) => answer.values[name] === undefined);
        if (answer.approved && missing.length > 0) return { approved: false, note: `The browser did not give the values of ${missing.map((name) => `{{${name}}}`).join(', ')}; nothing was typed.`, values: {} };
        return { approved: answer.approved, ...(answer.note ? { note: answer.note } : {}), values: answer.approved ? answer.values : {} };
      },
      (note) => ({ approved: false, note, values: {} }),
    );
}

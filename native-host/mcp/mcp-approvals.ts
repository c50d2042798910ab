import type { ApprovalAnswer, Approver } from '../../shared/agent/approval';
import type { McpActivity, McpSessionRef } from '../../shared/protocol';
import type { BrowserLink } from './browser-link';

/** How long a host-side step waits for the user's answer in the side panel. */
const APPROVAL_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * Asks the user in the side panel about a host-side step of a connected agent (a shell command, desktop input), with
 * the agent's name on the card. The agent leaving or cancelling withdraws the card; a browser that cannot be asked
 * means no.
 */
export function panelApprover(link: BrowserLink, session: McpSessionRef, activity: (change: Pick<McpActivity, 'callId' | 'tool' | 'text' | 'state'>) => void): Approver {
  return async (request, signal): Promise<ApprovalAnswer> => {
    activity({ callId: request.callId, tool: request.tool, text: request.intent, state: 'awaiting_approval' });
    const onAbort = (): void => void link.call('mcp.cancel', { sessionId: session.id, callId: request.callId, reason: 'The agent cancelled the call.' }).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await link.call(
        'mcp.approve',
        {
          session,
          callId: request.callId,
          tool: request.tool,
          intent: request.intent,
          reason: request.reason,
          classes: request.classes,
          url: request.url,
          ...(request.alwaysAllowPrefix === undefined ? {} : { alwaysAllowPrefix: request.alwaysAllowPrefix }),
        },
        { timeoutMs: APPROVAL_TIMEOUT_MS },
      );
      return { approved: answer.approved, ...(answer.note ? { note: answer.note } : {}), ...(answer.alwaysAllowPrefix ? { alwaysAllowPrefix: answer.alwaysAllowPrefix } : {}) };
    } catch (error) {
      return { approved: false, note: `Deputy could not ask the user (${error instanceof Error ? error.message : String(error)}).` };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

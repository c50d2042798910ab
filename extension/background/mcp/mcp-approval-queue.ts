import type { ApprovalAnswer } from '../../../shared/agent/approval';
import { RiskClass } from '../../../shared/agent/risk-class';
import { AppError } from '../../../shared/errors';
import type { ApprovalDecision, McpApprovalParams, McpPendingApproval, McpSessionRef } from '../../../shared/protocol';

export interface McpApprovalRequest {
  callId: string;
  tool: string;
  intent: string;
  reason: string;
  classes: string[];
  url: string;
  standing?: McpPendingApproval['standing'];
}

/** The card a host-side step of an agent asks for (`mcp.approve`, `mcp.reveal`), without any standing approval. */
export function hostApprovalRequest(params: McpApprovalParams): McpApprovalRequest {
  const { callId, tool, intent, reason, classes, url } = params;
  return { callId, tool, intent, reason, classes, url };
}

interface Pending {
  approval: McpPendingApproval;
  resolve: (answer: ApprovalAnswer & { site?: string }) => void;
}

/**
 * Steps of connected agents that wait for the user, answered only from the side panel (the ui channel accepts only the
 * extension's own pages). An agent that goes away, cancels, or is stopped takes its cards with it, refused.
 */
export class McpApprovalQueue {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: { newId: () => string; now: () => number; changed: () => void }) {}

  get size(): number {
    return this.pending.size;
  }

  list(): McpPendingApproval[] {
    return [...this.pending.values()].map((entry) => entry.approval).sort((a, b) => a.askedAt - b.askedAt);
  }

  ask(session: McpSessionRef, request: McpApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer & { site?: string }> {
    if (signal?.aborted) return Promise.resolve({ approved: false, note: 'The call was cancelled.' });
    const id = this.deps.newId();
    const approval: McpPendingApproval = {
      id,
      session,
      callId: request.callId,
      tool: request.tool,
      intent: request.intent,
      reason: request.reason,
      classes: request.classes.flatMap((c) => {
        const known = RiskClass.safeParse(c);
        return known.success ? [known.data] : [];
      }),
      url: request.url,
      askedAt: this.deps.now(),
      ...(request.standing ? { standing: request.standing } : {}),
    };
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(id, { approved: false, note: 'The call was cancelled before the user answered.' });
      };
      this.pending.set(id, {
        approval,
        resolve: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.deps.changed();
    });
  }

  /** The user's answer from the panel. "Approve for …" approves the standing choice the card offered. */
  answer(id: string, decision: ApprovalDecision, note?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) throw new AppError('not_found', 'That approval is no longer pending (the agent moved on, cancelled or disconnected).');
    const standing = entry.approval.standing;
    if (decision === 'reject') return this.settle(id, { approved: false, ...(note ? { note } : {}) });
    if (decision === 'approve_site' && standing?.kind === 'site') return this.settle(id, { approved: true, site: standing.site });
    if (decision === 'approve_site' && standing?.kind === 'prefix') return this.settle(id, { approved: true, alwaysAllowPrefix: standing.prefix });
    return this.settle(id, { approved: true });
  }

  /** Refuses every card of a session, or of one of its calls. */
  cancel(sessionId: string, callId: string | undefined, note: string): void {
    for (const [id, entry] of this.pending) {
      if (entry.approval.session.id === sessionId && (callId === undefined || entry.approval.callId === callId)) this.settle(id, { approved: false, note });
    }
  }

  private settle(id: string, answer: ApprovalAnswer & { site?: string }): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.resolve(answer);
    this.deps.changed();
    return true;
  }
}

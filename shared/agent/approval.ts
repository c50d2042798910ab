import type { RiskClass } from './risk-class';

/** What the user is asked to approve: one tool call, in words, with why it needs approval. */
export interface ApprovalRequest {
  taskId: string;
  step: number;
  callId: string;
  tool: string;
  /** "Click [31] button "Place order"". */
  intent: string;
  classes: RiskClass[];
  reason: string;
  url: string;
  /**
   * Offered where approving a whole family of calls makes sense (shell commands): the prefix the user may choose to
   * allow from now on without being asked, e.g. "git status".
   */
  alwaysAllowPrefix?: string;
}

export interface ApprovalAnswer {
  approved: boolean;
  /** What the user said, passed to the model when they decline. */
  note?: string;
  /** The user approved, and allows calls starting with this prefix from now on (as offered, or as they edited it). */
  alwaysAllowPrefix?: string;
}

/**
 * Asks the user. The background implements it with the side panel or popup (the only senders it accepts approvals
 * from); pages can never answer it. It may take as long as the user does.
 */
export type Approver = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalAnswer>;

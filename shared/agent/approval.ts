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
}

export interface ApprovalAnswer {
  approved: boolean;
  /** What the user said, passed to the model when they decline. */
  note?: string;
}

/**
 * Asks the user. The background implements it with the side panel or popup (the only senders it accepts approvals
 * from); pages can never answer it. It may take as long as the user does.
 */
export type Approver = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalAnswer>;

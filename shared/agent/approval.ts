import type { RiskClass } from './risk-class';

/**
 * What the user is asked to approve: one tool call, or one request the browser held, in words and as data, so a side
 * panel can show where it goes and what it sends, not only a sentence.
 */
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
  /** 'action': the gate stopped a step before it ran; 'egress': the browser held a request the step made. */
  kind?: 'action' | 'egress';
  /** The origin the step takes the user or sends data to, when it leaves where the task is. */
  destination?: string | null;
  /** What goes there: the method and the names of the fields, never their values. */
  sends?: { method: string; fields: string[] } | null;
  /** The origin of the page or frame the step acts in. */
  actsOn?: string | null;
  /** Shown first on the card: the destination is an internationalized name that would pass for a site the user knows. */
  warning?: string;
  /** What the step does, in words ("It sends the fields card, name to evil.test (POST)."). */
  consequence?: string;
  /** The origin "Approve for site" approves for this task; null when the step is too risky to approve beyond once. */
  siteApproval?: string | null;
  /**
   * Offered where approving a whole family of calls makes sense (shell commands): the prefix the user may choose to
   * allow from now on without being asked, e.g. "git status".
   */
  alwaysAllowPrefix?: string;
}

/** What a step that waited for the user reads when the user stopped the task instead of answering. */
export const STOPPED_BY_USER = 'The user stopped the task before this step.';

export interface ApprovalAnswer {
  approved: boolean;
  /** The user stopped the task while the card waited: no answer to the step itself (not a rejection, not an edit). */
  stopped?: boolean;
  /** What the user said, passed to the model when they decline. */
  note?: string;
  /** 'site': approved with "Approve for site", which approves the request's `siteApproval` origin for the task. */
  scope?: 'once' | 'site';
  /** The user approved, and allows calls starting with this prefix from now on (as offered, or as they edited it). */
  alwaysAllowPrefix?: string;
}

/**
 * Asks the user. The background implements it with the side panel or popup (the only senders it accepts approvals
 * from); pages can never answer it. It may take as long as the user does.
 */
export type Approver = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalAnswer>;

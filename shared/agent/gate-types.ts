import { z } from 'zod';
import type { GateFacts } from './action-effect';
import type { Plan } from './plan';
import type { RiskClass } from './risk-class';
import type { SecretVault } from './secret-vault';
import type { AnyTool, PageLookup } from './tool';

/** The limits a task runs in, set by the user. */
export const PolicyConfig = z.object({
  /**
   * ask: the user approves the plan, which approves its routine steps on the sites it names; other steps still ask.
   * act: routine actions proceed without a plan approval; risky ones still stop.
   */
  mode: z.enum(['ask', 'act']).default('ask'),
  /** In ask mode, approve every action one by one as well as the plan (Settings: "Approve each step"). */
  approveEachStep: z.boolean().default(false),
  /** Sites the task may go to and act on without asking, besides the origin it started on. */
  allowedSites: z.array(z.string()).default([]),
  /** Sites the task never acts on or opens. */
  deniedSites: z.array(z.string()).default([]),
  /**
   * The facts the user allowed a support chat to be told (order number, email, name), by name. Any other personal
   * data in an outgoing chat message is blocked.
   */
  allowedFacts: z.record(z.string(), z.string()).default({}),
});
export type PolicyConfig = z.infer<typeof PolicyConfig>;

export type Decision = 'allow' | 'ask' | 'deny';

export interface Classification {
  classes: RiskClass[];
  /** Why each class above the tool's base applies, in words the approval dialog shows. */
  reasons: string[];
  personalData: boolean;
  leavesApprovedSites: boolean;
  /** Reasons that need the user in any mode: a tab the task did not open, a value typed where it does not belong. */
  mustAsk: string[];
  /** Set when the call must never run, whatever the mode. */
  forbidden?: string;
  /** A question for the user when the call is blocked and they must say what to do instead. */
  askUser?: string;
  /** The plan's sub-goals changed; in ask mode the user approves the plan. */
  newPlan?: Plan;
  /** The user approved a plan for this task (ask mode): its routine steps on its sites go ahead. */
  planApproved?: boolean;
  /** The origin the action takes the user or sends data to, when that is not where the task already is. */
  destination?: string;
  /** What goes there: the method and the names of the fields (never their values). */
  sends?: { method: string; fields: string[] };
  /** The origin of the page or frame the action happens in. */
  actsOn?: string;
}

export interface GateVerdict extends Classification {
  decision: Decision;
  reason: string;
  /** What the action does, in words ("It sends card, name to evil.test (POST)."). */
  consequence: string;
  /** The origin "Approve for site" would approve for the task; null when the action is too risky for that. */
  siteApproval: string | null;
  /** For an `ask`: the prefix the approval may offer to allow from now on (see ApprovalRequest.alwaysAllowPrefix). */
  offerAlwaysAllow?: string;
}

export interface GateInput {
  tool: AnyTool<never>;
  args: Record<string, unknown>;
  page: PageLookup;
  vault: SecretVault;
  plan: Plan | null;
  config: PolicyConfig;
  /** Where the task started: its origin is always approved. A browser page (New Tab) has none yet. */
  startUrl: string;
  /** Origins the user approved for this task during its run ("Approve for site"). */
  taskSites?: readonly string[];
  /** What the environment found out about the action before it runs (its effect in the page). */
  facts?: GateFacts;
}

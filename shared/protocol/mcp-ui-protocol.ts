import { z } from 'zod';
import { RiskClass } from '../agent/risk-class';
import { McpActivity, McpSessionRef } from './mcp-protocol';
import { ApprovalDecision } from './task-protocol';

/** A step of a connected agent waiting for the user, with the agent named. */
export const McpPendingApproval = z.object({
  id: z.string(),
  session: McpSessionRef,
  callId: z.string(),
  tool: z.string(),
  intent: z.string(),
  reason: z.string(),
  classes: z.array(RiskClass),
  url: z.string(),
  askedAt: z.number(),
  /** What "Approve for …" approves: a site for this agent (page steps) or a command prefix (shell steps). */
  standing: z.discriminatedUnion('kind', [z.object({ kind: z.literal('site'), site: z.string() }), z.object({ kind: z.literal('prefix'), prefix: z.string() })]).optional(),
});
export type McpPendingApproval = z.infer<typeof McpPendingApproval>;

/** One agent connection as the panel lists it: who, since when, where it works, and its latest steps. */
export const McpSessionView = z.object({
  session: McpSessionRef,
  state: z.enum(['connected', 'disconnected', 'stopped']),
  connectedAt: z.number(),
  endedAt: z.number().optional(),
  reason: z.string().optional(),
  tabId: z.number().int().optional(),
  /** Newest last, at most the last 50. */
  activity: z.array(McpActivity),
});
export type McpSessionView = z.infer<typeof McpSessionView>;

export const McpView = z.object({
  enabled: z.boolean(),
  sessions: z.array(McpSessionView),
  approvals: z.array(McpPendingApproval),
});
export type McpView = z.infer<typeof McpView>;

export const mcpUiMethods = {
  'mcp.current': { params: z.object({}), result: McpView },
  'mcp.answer': {
    params: z.object({ approvalId: z.string().min(1), decision: ApprovalDecision, note: z.string().max(1000).optional() }),
    result: z.object({ answered: z.boolean() }),
  },
  /** Stop: ends the agent's connection and what it started; its pending steps are refused. */
  'mcp.stop': { params: z.object({ sessionId: z.string().min(1).max(128) }), result: z.object({ stopped: z.boolean() }) },
} as const;

export const mcpUiEvents = { 'mcp.updated': McpView } as const;

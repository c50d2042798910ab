import type { AgentState, CallRecord, StepRecord } from './agent-state';
import type { ApprovalRequest } from './approval';
import { type BlockedEgress, type EgressScope, describeBlocked, secretsText } from './egress';
import { originLabel, originOf } from './site-list';
import { intentOf } from './step-text';

/**
 * The approval for a request the egress guard held during a call. A page load (GET) may be approved for the site;
 * a post that carries fields only once.
 */
export function approvalForEgress(call: CallRecord, state: AgentState, step: StepRecord, tool: string, blocked: BlockedEgress): ApprovalRequest {
  const where = originLabel(blocked.origin);
  const secrets = secretsText(blocked);
  const fields = secrets ? secrets : blocked.fields.length > 0 ? `the fields ${blocked.fields.slice(0, 12).join(', ')}` : blocked.withQuery ? 'data in the address' : 'a request';
  return {
    taskId: state.taskId,
    step: step.index,
    callId: call.id,
    tool,
    intent: `${call.stepText === undefined ? tool : intentOf(call.stepText)}, which sent ${describeBlocked(blocked)}`,
    classes: [...new Set([...call.classes, 'navigate' as const])],
    reason: `Needs your approval because Deputy's egress guard held ${describeBlocked(blocked)}, outside the approved sites: it would send ${fields} to ${where}.`,
    url: step.observation.url,
    kind: 'egress',
    destination: blocked.origin,
    sends: { method: blocked.method, fields: blocked.fields },
    actsOn: originOf(step.observation.url),
    consequence: `It sends ${fields} to ${where} (${blocked.method}).`,
    // A request that carries a secret is approved once, for that secret and that destination, never for the site.
    siteApproval: blocked.method === 'GET' && !secrets ? blocked.origin : null,
  };
}

/** Adds approved origins to the task's state; true when something was added (the guard must then be told). */
export function recordApprovedOrigins(state: AgentState, added: { reach?: string | undefined | null; site?: string | null }): boolean {
  let changed = false;
  const lists = state.approvedOrigins;
  if (added.reach && !lists.reach.includes(added.reach)) {
    lists.reach.push(added.reach);
    changed = true;
  }
  if (added.site && !lists.sites.includes(added.site)) {
    lists.sites.push(added.site);
    changed = true;
  }
  return changed;
}

/** Everything the task's tabs may reach now: its start origin, the origins approved during it, the user's sites. */
export function egressScopeOf(state: AgentState, patterns: readonly string[]): EgressScope {
  const start = originOf(state.startUrl);
  const origins = [...(start ? [start] : []), ...state.approvedOrigins.sites, ...state.approvedOrigins.reach];
  return { origins: [...new Set(origins)], patterns: [...patterns] };
}

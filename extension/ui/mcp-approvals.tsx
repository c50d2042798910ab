import type { McpPendingApproval } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { ApprovalCard } from './approval-card';

/** "Approve for …": a site for this agent only, or a command prefix always allowed on this machine. */
function standingLabel(approval: McpPendingApproval): string | undefined {
  if (approval.standing?.kind === 'site') return `Approve for ${approval.standing.site} (this agent)`;
  if (approval.standing?.kind === 'prefix') return `Always allow "${approval.standing.prefix}"`;
  return undefined;
}

/**
 * Steps of connected agents that wait for the user, shown above whatever view is open: an agent works outside the
 * panel's tab, so its questions must not hide in another tab. Each card names the agent that asks.
 */
export function McpApprovals(props: { client: BackgroundClient; approvals: McpPendingApproval[] }) {
  if (props.approvals.length === 0) return null;
  return (
    <section class="mcp-approvals" aria-label="Agents waiting for you" data-testid="mcp-approvals">
      {props.approvals.map((approval) => {
        const always = standingLabel(approval);
        return (
          <div key={approval.id} class="mcp-approval" data-testid="mcp-approval" data-session-id={approval.session.id}>
            <p class="mcp-approval__who" data-testid="mcp-approval-client">
              {approval.session.kind === 'task' ? 'Deputy shell task' : approval.session.client.name} asks:
            </p>
            <ApprovalCard
              approval={{ ...approval, step: 0 }}
              {...(always === undefined ? { allowSite: false } : { alwaysLabel: always })}
              onDecide={(decision) => props.client.call('mcp.answer', { approvalId: approval.id, decision })}
            />
          </div>
        );
      })}
    </section>
  );
}

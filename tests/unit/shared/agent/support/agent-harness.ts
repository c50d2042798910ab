import type { AgentState } from '../../../../../shared/agent/agent-state';
import type { ApprovalAnswer, ApprovalRequest } from '../../../../../shared/agent/approval';
import { controlTools } from '../../../../../shared/agent/control-tools';
import type { Provider } from '../../../../../shared/agent/providers/provider';
import type { AgentDeps } from '../../../../../shared/agent/run-agent';
import { createSecretVault, type SecretVault } from '../../../../../shared/agent/secret-vault';
import type { TraceRecord } from '../../../../../shared/agent/trace';
import type { WebEnvironment } from '../../../../../shared/agent/web-environment';
import { webTools } from '../../../../../shared/agent/web-tools';

export interface Harness {
  deps: AgentDeps<WebEnvironment>;
  saved: AgentState[];
  trace: TraceRecord[];
  approvals: ApprovalRequest[];
  vault: SecretVault;
}

/** Deps for the loop with recording fakes for persistence, trace and approvals; a ticking clock, no real time. */
export function harness(
  environment: WebEnvironment,
  provider: Provider,
  options: { approve?: (request: ApprovalRequest) => ApprovalAnswer; vault?: Record<string, string> } & Omit<Partial<AgentDeps<WebEnvironment>>, 'approve' | 'vault'> = {},
): Harness {
  const saved: AgentState[] = [];
  const trace: TraceRecord[] = [];
  const approvals: ApprovalRequest[] = [];
  const vault = createSecretVault({ entries: options.vault ?? {} });
  let tick = 1_700_000_000_000;
  const { approve, vault: _vault, ...rest } = options;
  const deps: AgentDeps<WebEnvironment> = {
    environment,
    tools: [...webTools, ...controlTools<WebEnvironment>()],
    provider,
    policy: { mode: 'act' },
    vault,
    approve: (request) => {
      approvals.push(request);
      return Promise.resolve(approve ? approve(request) : { approved: false, note: 'No approvals in this test.' });
    },
    persist: (state) => {
      saved.push(state);
      return Promise.resolve();
    },
    trace: (record) => trace.push(record),
    now: () => (tick += 10),
    ...rest,
  };
  return { deps, saved, trace, approvals, vault };
}

/** A tool call as the fake provider script writes it. */
export function call(name: string, args: unknown): { toolCalls: { name: string; arguments: unknown }[] } {
  return { toolCalls: [{ name, arguments: args }] };
}

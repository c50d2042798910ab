import type { Approver } from '../../shared/agent/approval';
import type { CallRecord } from '../../shared/agent/agent-state';
import { runSingleCall } from '../../shared/agent/single-call';
import { observationRecord } from '../../shared/agent/step-record';
import { addAlwaysAllow, loadShellRules, ShellRules } from '../shell/command-rules';
import { createCommandGate } from '../shell/command-gate';
import { createShellEnvironment, type ShellAgentEnvironment } from '../shell/agent/shell-environment';
import type { ShellSession } from '../shell/agent/shell-session';
import { shellTools } from '../shell/agent/shell-tools';
import { MCP_SHELL_TOOLS } from './mcp-tool-list';

export interface McpShellDeps {
  /** Opens the agent's shell session on this machine (on its first command). */
  open: () => Promise<ShellSession>;
  rulesFile: string;
  approve: Approver;
  /** Who asks, for the command validator's objective and the log. */
  clientName: string;
  now: () => number;
}

export interface McpShell {
  call(name: string, args: Record<string, unknown>, callId: string, signal?: AbortSignal): Promise<CallRecord>;
  /** Ends what the agent left running and closes the session's log. */
  close(): Promise<void>;
}

/**
 * A connected agent's shell: one local session per agent (its own log in the shell sessions folder, its processes
 * killed when it disconnects), and every command through the shell's own gate in ask-first mode: the user's deny
 * rules, destructive commands, then the user's approval in the side panel unless a rule or an "always allow" covers it.
 */
export function createMcpShell(deps: McpShellDeps): McpShell {
  let opened: Promise<{ session: ShellSession; environment: ShellAgentEnvironment }> | undefined;
  const tools = shellTools().filter((tool) => MCP_SHELL_TOOLS.has(tool.name));
  let rules: ShellRules | undefined;
  const start = async (): Promise<{ session: ShellSession; environment: ShellAgentEnvironment }> => {
    const session = await deps.open();
    session.log.append({ type: 'session', sessionId: session.sessionId, target: session.target.label, objective: `Commands from ${deps.clientName} (MCP)`, mode: 'ask', resumed: false });
    const environment = createShellEnvironment({ service: session.service, log: session.log, target: session.target, info: session.info, startDir: session.startDir, waitMs: 10_000, now: deps.now });
    return { session, environment };
  };
  return {
    async call(name, args, callId, signal) {
      const { session, environment } = await (opened ??= start());
      rules = await loadShellRules(deps.rulesFile);
      const approve: Approver = async (request, abort) => {
        const answer = await deps.approve(request, abort);
        session.log.append({ type: 'approval', callId: request.callId, intent: request.intent, approved: answer.approved, by: 'user', ...(answer.note ? { note: answer.note } : {}) });
        if (answer.approved && answer.alwaysAllowPrefix?.trim()) rules = await addAlwaysAllow(deps.rulesFile, 'local', answer.alwaysAllowPrefix.trim());
        return answer;
      };
      return runSingleCall({
        taskId: session.sessionId,
        task: `Commands from ${deps.clientName}`,
        startUrl: session.target.url,
        observation: observationRecord(await environment.observe({ screenshot: false }), session.redactor),
        call: { id: callId, name, arguments: args },
        tools,
        environment,
        policy: { mode: 'ask', approveEachStep: true, allowedSites: [], deniedSites: [], allowedFacts: {} },
        vault: session.vault,
        redactor: session.redactor,
        approve,
        gate: createCommandGate({
          mode: 'ask',
          targetKey: 'local',
          targetLabel: session.description,
          objective: `Commands from ${deps.clientName}`,
          rules: () => rules ?? ShellRules.parse({}),
          vault: session.vault,
          log: session.log,
        }),
        ...(signal ? { signal } : {}),
        now: deps.now,
      });
    },
    async close() {
      const current = opened;
      opened = undefined;
      if (current) await (await current).session.close();
    },
  };
}

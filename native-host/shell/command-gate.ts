import type { AgentState } from '../../shared/agent/agent-state';
import type { GateVerdict } from '../../shared/agent/policy-gate';
import type { RiskClass } from '../../shared/agent/risk-class';
import type { SecretVault } from '../../shared/agent/secret-vault';
import type { ToolGate } from '../../shared/agent/tool-gate';
import { effectiveWords, simpleCommands } from './command-words';
import { matchRules, suggestPrefix, type ShellRules } from './command-rules';
import type { Validator } from './command-validator';
import { destructiveReason } from './destructive-commands';
import type { SessionLog } from './session-log';

export interface CommandGateDeps {
  mode: 'ask' | 'act';
  /** The rules' name for the target: "local" or "user@host:port". */
  targetKey: string;
  targetLabel: string;
  objective: string;
  /** The rules as they are now (an "always allow" the user just chose counts for the next command). */
  rules: () => ShellRules;
  /** The validator of act mode. Without one, act mode asks the user instead (it never runs a command unchecked). */
  validator?: Validator;
  vault: SecretVault;
  log: SessionLog;
}

/** Files whose change alters the system or how the user logs in: writing them always asks. */
const SENSITIVE_FILE = /^(\/etc\/|\/boot\/|\/usr\/|\/bin\/|\/sbin\/|\/lib|\/var\/spool\/cron)|(^|\/)\.ssh\/|(^|\/)\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|config\/fish\/config\.fish)$|(^|\/)(sudoers|crontab)$/;

/** Tools that change nothing outside the agent (or only its own processes): no approval, no validator. */
const FREE_TOOLS = new Set(['processes', 'check', 'wait_for_output', 'search_history', 'set_timeout', 'ask_user', 'report', 'update_plan', 'kill']);

/** Why a command would have the model type a password, which it never does. */
function typesPassword(command: string): string | undefined {
  for (const part of simpleCommands(command)) {
    const words = effectiveWords(part);
    const raw = part.trim().split(/\s+/);
    const base = (words[0] ?? '').replace(/^.*\//, '');
    if (raw[0]?.replace(/^.*\//, '') === 'sudo' && raw.some((w) => w === '-S' || w === '--stdin' || /^-[A-Za-z]*S/.test(w))) return 'it feeds a password to sudo on standard input';
    if (base === 'sshpass') return 'it passes a password to ssh with sshpass';
  }
  return undefined;
}

function verdict(decision: GateVerdict['decision'], reason: string, extra: { classes?: RiskClass[]; personalData?: boolean; offer?: string } = {}): GateVerdict {
  return {
    classes: extra.classes ?? ['act'],
    reasons: [reason],
    personalData: extra.personalData ?? false,
    leavesApprovedSites: false,
    mustAsk: [],
    decision,
    reason,
    // A command has no page, destination or site to approve: its reason says it all.
    consequence: '',
    siteApproval: null,
    ...(extra.offer === undefined ? {} : { offerAlwaysAllow: extra.offer }),
  };
}

/** A string argument of a call (the model's JSON; anything else counts as empty). */
const text = (args: Record<string, unknown>, key: string): string => (typeof args[key] === 'string' ? args[key] : '');

/** The last few steps, one line each, for the validator. */
export function recentSteps(state: AgentState, count = 6): string {
  return state.steps
    .flatMap((step) => step.calls.filter((call) => call.status !== 'proposed' && call.status !== 'awaiting_approval').map((call) => ({ step, call })))
    .slice(-count)
    .map(({ step, call }) => `${step.index + 1}. ${call.stepText ?? call.name} -> ${call.status === 'denied' ? 'refused' : call.result?.ok === false ? 'failed' : 'ok'}: ${(call.result?.content ?? '').split('\n').find((l) => l.trim() !== '')?.slice(0, 160) ?? ''}`)
    .join('\n');
}

/**
 * The shell's gate, in the order that makes it safe with a compromised model: the user's deny rules, then commands
 * that would type a password, then destructive commands (always the user), then the user's ask and allow rules, then
 * the mode: ask-first asks the user (offering to always allow the command's prefix), act asks the validator model,
 * which fails closed (no clear verdict in time means the user decides). Rules are checked before any model. A
 * command that uses a secret placeholder always goes to the user, since approving it sends the real value.
 */
export function createCommandGate(deps: CommandGateDeps): ToolGate {
  return async ({ tool, args, state, callId, signal }) => {
    if (FREE_TOOLS.has(tool.name)) return verdict('allow', 'It only reads, or acts on the agent\'s own processes.', { classes: ['read'] });
    if (tool.name !== 'run' && tool.name !== 'write_file') return undefined;
    const command = tool.name === 'run' ? text(args, 'command') : `write_file ${text(args, 'path')}`;
    const placeholders = deps.vault.placeholdersIn(tool.name === 'run' ? command : `${command}\n${text(args, 'content')}`);
    const decide = (decision: GateVerdict['decision'], by: string, reason: string, extra: Parameters<typeof verdict>[2] = {}): GateVerdict => {
      deps.log.append({ type: 'gate', callId, tool: tool.name, subject: command, decision, by, reason });
      return verdict(decision, reason, { ...extra, ...(placeholders.length > 0 ? { personalData: true } : {}) });
    };
    const rules = matchRules(deps.rules(), deps.targetKey, command);
    if (rules?.decision === 'deny') return decide('deny', 'rule', `Not allowed: your shell rule "${rules.rule}" denies it.`);
    const password = tool.name === 'run' ? typesPassword(command) : undefined;
    if (password) {
      return decide('deny', 'password', `Not allowed: ${password}. Deputy never has the model type passwords: run the command with pty: true, and the user types the password when it asks.`);
    }
    const destructive = tool.name === 'run' ? destructiveReason(command) : SENSITIVE_FILE.test(text(args, 'path')) ? 'it writes a system file or a login file' : undefined;
    if (destructive) return decide('ask', 'destructive', `Deputy always asks before a command that ${destructive.replace(/^it /, '')}.`, { classes: ['irreversible'] });
    if (rules?.decision === 'ask') return decide('ask', 'rule', `Your shell rule "${rules.rule}" asks before it.`);
    const secret = placeholders.length > 0 ? `It uses ${placeholders.map((p) => `{{${p}}}`).join(', ')}, which the model never saw: approving sends the real value.` : undefined;
    if (rules?.decision === 'allow') {
      return secret ? decide('ask', 'secret', secret) : decide('allow', 'rule', `Allowed by your shell rules (${rules.rule}).`);
    }
    const offer = tool.name === 'run' ? suggestPrefix(command) : undefined;
    if (deps.mode === 'ask') return decide('ask', 'mode', secret ?? 'Ask first: you approve each command.', offer === undefined ? {} : { offer });
    if (secret) return decide('ask', 'secret', secret);
    if (!deps.validator) return decide('ask', 'mode', 'No validator model is set up, so Deputy asks you.');
    const checked = await deps.validator(
      {
        objective: deps.objective,
        target: deps.targetLabel,
        subject: tool.name === 'run' ? `run: ${command}${text(args, 'cwd') ? ` (in ${text(args, 'cwd')})` : ''}${args.pty ? ' (in a pty)' : ''}` : command,
        ...(tool.name === 'write_file' ? { detail: `File content (start):\n${text(args, 'content').slice(0, 3000)}` } : {}),
        recent: recentSteps(state),
      },
      signal,
    );
    deps.log.append({ type: 'verdict', callId, subject: command, verdict: checked.verdict, reason: checked.reason, model: checked.model, durationMs: checked.durationMs });
    if (checked.verdict === 'approve') return decide('allow', 'validator', `Approved by the validator: ${checked.reason}`);
    if (checked.verdict === 'reject') return decide('deny', 'validator', `The validator model refused it: ${checked.reason}`);
    return decide('ask', 'validator', `The validator could not decide (${checked.reason}), so Deputy asks you.`, offer === undefined ? {} : { offer });
  };
}

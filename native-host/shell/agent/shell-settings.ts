import type { ProviderSettings } from '../../../shared/agent/providers/create-provider';
import { approveFlag, dollarsFlag, modeFlag, providerFromFlags, usage, wholeFlag, type ModelFlags } from '../../cli/model-flags';
import type { TargetSpec } from '../shell-target';
import { parseDestination } from '../ssh/ssh-destination';
import { SHELL_DEFAULTS } from './run-shell-task';

/** The `deputy shell` flags as commander hands them over, before checking. */
export interface ShellFlags extends ModelFlags {
  ssh?: string;
  mode?: string;
  approve?: string;
  validatorModel?: string;
  steps?: string;
  maxCost?: string;
  timeout?: string;
  memoryChars?: string;
  cwd?: string;
  sessionsDir?: string;
  rules?: string;
  resume?: string;
}

export interface ShellSettings {
  objective: string;
  target: TargetSpec;
  mode: 'ask' | 'act';
  approve: 'all' | 'none' | 'ask';
  provider: ProviderSettings;
  /** The validator's model for act mode: the same provider, another model when --validator-model is given. */
  validator: ProviderSettings;
  maxSteps: number;
  /** Dollars per turn; undefined: none (or, on --resume, the cap the session last ran under). */
  maxCostUsd: number | undefined;
  waitMs: number;
  memoryChars: number;
  cwd: string | undefined;
  sessionsDir: string | undefined;
  rulesFile: string | undefined;
  resume: string | undefined;
}

/**
 * Checks the flags of `deputy shell`: the objective (unless resuming), where to run (--ssh user@host[:port] or an
 * alias, else this machine), the mode (ask by default: each command is approved), and the model the way
 * `npm run task` picks it.
 */
export function shellSettings(words: string[], flags: ShellFlags, env: Record<string, string | undefined>): ShellSettings {
  const objective = words.join(' ').trim();
  if (objective === '' && flags.resume === undefined) throw usage('Say what to reach, e.g. deputy shell --ssh deploy@web1 "find out why nginx does not start".');
  if (objective !== '' && flags.resume !== undefined) throw usage('--resume continues a saved session with its own objective: leave the objective out.');
  if (flags.ssh !== undefined) parseDestination(flags.ssh);
  const provider = providerFromFlags(flags, env, { vision: false });
  return {
    objective,
    target: flags.ssh === undefined ? { kind: 'local' } : { kind: 'ssh', destination: flags.ssh },
    mode: modeFlag(flags.mode, 'ask'),
    approve: approveFlag(flags.approve),
    provider,
    validator: flags.validatorModel === undefined ? provider : { ...provider, model: flags.validatorModel },
    maxSteps: wholeFlag(flags.steps, '--steps', 1, 500) ?? SHELL_DEFAULTS.maxSteps,
    maxCostUsd: dollarsFlag(flags.maxCost),
    waitMs: (wholeFlag(flags.timeout, '--timeout', 1, 600) ?? SHELL_DEFAULTS.waitMs / 1000) * 1000,
    memoryChars: wholeFlag(flags.memoryChars, '--memory-chars', 1000, 1_000_000) ?? SHELL_DEFAULTS.memoryChars,
    cwd: flags.cwd,
    sessionsDir: flags.sessionsDir,
    rulesFile: flags.rules,
    resume: flags.resume,
  };
}

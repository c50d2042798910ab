import type { ProviderSettings } from '../../../shared/agent/providers/create-provider';
import { approveFlag, dollarsFlag, modeFlag, providerFromFlags, usage, wholeFlag, type ModelFlags } from '../../cli/model-flags';

/** The `deputy desktop` flags as commander hands them over, before checking. */
export interface DesktopFlags extends ModelFlags {
  mode?: string;
  approve?: string;
  dryRun?: boolean;
  display?: string;
  width?: string;
  quality?: string;
  steps?: string;
  maxCost?: string;
  resume?: string;
  runsDir?: string;
}

export interface DesktopSettings {
  task: string;
  provider: ProviderSettings;
  mode: 'ask' | 'act';
  approve: 'all' | 'none' | 'ask';
  dryRun: boolean;
  displayId?: string;
  width: number;
  quality: number;
  maxSteps?: number;
  maxCostUsd?: number;
  /** A run folder whose task stopped at its cost cap, to go on with (its task is the one it had). */
  resume?: string;
  runsDir: string;
}

/**
 * Checks the flags of `deputy desktop` and picks the model the way `npm run task` does: --provider, --base-url and
 * --model, with the key from OPENAI_API_KEY, ANTHROPIC_API_KEY or DEPUTY_API_KEY (never a flag, so it stays out of
 * shell history). Desktop tasks always send screenshots, so the model is marked as reading images.
 */
export function desktopSettings(taskWords: string[], flags: DesktopFlags, env: Record<string, string | undefined>): DesktopSettings {
  const task = taskWords.join(' ').trim();
  if (task === '' && flags.resume === undefined) throw usage('Say what to do, e.g. deputy desktop "open the text editor and write a shopping list".');
  if (task !== '' && flags.resume !== undefined) throw usage('--resume goes on with the task its run folder saved: leave the task out.');
  const maxCostUsd = dollarsFlag(flags.maxCost);
  const mode = modeFlag(flags.mode, 'act');
  const approve = approveFlag(flags.approve);
  const provider = providerFromFlags(flags, env, { vision: true });
  const maxSteps = wholeFlag(flags.steps, '--steps', 1, 500);
  return {
    task,
    provider,
    mode,
    approve,
    dryRun: flags.dryRun === true,
    ...(flags.display === undefined ? {} : { displayId: flags.display }),
    width: wholeFlag(flags.width, '--width', 320, 3840) ?? 1280,
    quality: wholeFlag(flags.quality, '--quality', 10, 100) ?? 70,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
    ...(flags.resume === undefined ? {} : { resume: flags.resume }),
    runsDir: flags.runsDir ?? 'runs',
  };
}

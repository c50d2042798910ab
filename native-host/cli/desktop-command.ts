import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { lazyProvider as createProvider } from '../../shared/agent/providers/lazy-provider';
import type { TraceRecord } from '../../shared/agent/trace';
import { stoppedAtCostCap } from '../../shared/agent/cost-cap';
import { AppError } from '../../shared/errors';
import { loadCappedDesktopTask } from '../desktop/agent/saved-desktop-task';
import { desktopSettings, type DesktopFlags } from '../desktop/agent/desktop-settings';
import { runDesktopTask } from '../desktop/agent/run-desktop-task';
import { terminalPrompts } from './terminal-prompts';
import { createDesktopService } from '../desktop/create-desktop-service';
import { createLogger, streamSink } from '../log/logger';
import { UsageError } from './usage-error';

/** Registers `deputy desktop "task"`: one desktop task from the terminal, streaming each step. */
export function registerDesktopCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('desktop')
    .description('carry out a task on this screen with the mouse and keyboard (press Ctrl+Alt+Shift+S to stop it)')
    .argument('[task...]', 'what to do, in words')
    .addOption(new Option('--provider <name>', 'model provider').choices(['openai', 'anthropic', 'openai-compatible']))
    .option('--base-url <url>', 'address of an OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter, ...)')
    .option('--model <name>', 'model name (it must accept images)')
    .addOption(new Option('--mode <mode>', 'ask before acting (plan and each action), or act without asking (risky steps still stop)').choices(['ask', 'act']).default('act'))
    .addOption(new Option('--approve <which>', 'answer approvals automatically').choices(['all', 'none']))
    .option('--dry-run', 'describe each action instead of doing it')
    .option('--display <id>', 'which display to work on (default: the primary one)')
    .option('--width <px>', 'width of the screenshots sent to the model', '1280')
    .option('--quality <n>', 'JPEG quality of those screenshots (10-100)', '70')
    .option('--steps <n>', 'step budget')
    .option('--max-cost <dollars>', 'stop when the model has cost this much (state saved in the run folder)')
    .option('--resume <run-folder>', 'go on with a task that stopped at its cost cap, under a new --max-cost')
    .option('--runs-dir <dir>', 'where to write the run folder', 'runs')
    .action(async (words: string[], flags: DesktopFlags) => setExitCode(await desktopCommand(words, flags)));
}

function printer(write: (line: string) => void): (record: TraceRecord) => void {
  return (record) => {
    if (record.type === 'tool') {
      const result = record.content === null ? '' : ` -> ${record.ok === false ? 'failed: ' : ''}${(record.content.split('\n')[0] ?? '').slice(0, 160)}`;
      write(`  ${record.step + 1}. ${record.name} ${record.arguments}${record.status === 'denied' ? ' (blocked)' : ''}${result}`);
    } else if (record.type === 'notice') write(`  note: ${record.message}`);
    else if (record.type === 'error') write(`  error: ${record.message}`);
  };
}

/**
 * Runs the task in this process; desktop control itself runs in the worker process the host uses too. Ctrl+C stops
 * the task like the hotkey does. Exits 0 only when the task finished successfully.
 */
export async function desktopCommand(words: string[], flags: DesktopFlags): Promise<number> {
  let settings;
  try {
    settings = desktopSettings(words, flags, process.env);
  } catch (error) {
    throw error instanceof AppError ? new UsageError(error.message) : error;
  }
  const write = (line: string): void => void process.stdout.write(`${line}\n`);
  const log = createLogger('desktop', [streamSink(process.stderr)], process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const provider = createProvider(settings.provider, { browser: false });
  const desktop = createDesktopService({ entry: process.argv[1] ?? '', log });
  const controller = new AbortController();
  const prompts = terminalPrompts({ input: process.stdin, output: process.stdout }, settings.approve);
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const status = await desktop.status();
    if (!status.available) throw new AppError('unavailable', `Desktop control is unavailable: ${status.reason}`);
    const continueFrom = settings.resume === undefined ? undefined : await loadCappedDesktopTask(settings.resume);
    const runDir = settings.resume ?? join(settings.runsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-desktop`);
    write(`deputy desktop: ${continueFrom ? `${continueFrom.task} (continued)` : settings.task}`);
    write(`  model ${provider.label}/${provider.model}, mode ${settings.mode}${settings.dryRun ? ', dry run' : ''}; press ${status.stopHotkey}${status.stopHotkeyActive ? '' : ' (inactive here: use Ctrl+C)'} to stop`);
    write(`  run folder: ${runDir}`);
    const { state, stoppedByHotkey } = await runDesktopTask({
      task: settings.task,
      provider,
      desktop,
      runDir,
      mode: settings.mode,
      approve: prompts.approver,
      askUser: prompts.askUser,
      dryRun: settings.dryRun,
      width: settings.width,
      quality: settings.quality,
      ...(settings.displayId === undefined ? {} : { displayId: settings.displayId }),
      ...(settings.maxSteps === undefined ? {} : { maxSteps: settings.maxSteps }),
      ...(settings.maxCostUsd === undefined ? {} : { maxCostUsd: settings.maxCostUsd }),
      ...(continueFrom ? { continueFrom } : {}),
      signal: controller.signal,
      onTrace: printer(write),
      log,
      now: () => Date.now(),
    });
    const summary = state.outcome?.summary ?? state.endReason ?? '';
    write(`${state.status}${stoppedByHotkey ? ' (stop hotkey)' : ''}: ${summary}`);
    write(`  ${state.steps.length} steps; run folder ${runDir}`);
    if (stoppedAtCostCap(state)) write(`  continue with: deputy desktop --resume ${runDir} --max-cost DOLLARS`);
    return state.status === 'completed' ? 0 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    prompts.close();
    await desktop.close();
  }
}

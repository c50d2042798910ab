import { userInfo } from 'node:os';
import { type Command, Option } from 'commander';
import { lazyProvider as createProvider } from '../../shared/agent/providers/lazy-provider';
import { stoppedAtCostCap } from '../../shared/agent/cost-cap';
import { AppError } from '../../shared/errors';
import { createLogger, streamSink } from '../log/logger';
import { currentPathEnv } from '../paths';
import { createValidator } from '../shell/command-validator';
import { runShellTask } from '../shell/agent/run-shell-task';
import { openShellSession } from '../shell/agent/shell-session';
import { listSessions } from '../shell/agent/shell-session-file';
import { shellPrinter } from '../shell/agent/shell-printer';
import { shellSettings, type ShellFlags } from '../shell/agent/shell-settings';
import { shellPaths } from '../shell/shell-paths';
import { terminalPrompts } from './terminal-prompts';
import { UsageError } from './usage-error';

/** How long the validator may take before act mode falls back to asking the user. */
const VALIDATOR_TIMEOUT_MS = 30_000;

/** Registers `deputy shell "objective"`: a shell task on this machine or over SSH, streaming each command's output. */
export function registerShellCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('shell')
    .description('reach an objective with shell commands on this machine or over SSH, streaming each command and its output')
    .argument('[objective...]', 'what to reach, in words')
    .option('--ssh <destination>', 'run on this host: user@host[:port] or a Host alias from ~/.ssh/config (default: this machine)')
    .addOption(new Option('--mode <mode>', 'ask: approve each command; act: a validator model approves each command').choices(['ask', 'act']).default('ask'))
    .addOption(new Option('--provider <name>', 'model provider').choices(['openai', 'anthropic', 'openai-compatible']))
    .option('--base-url <url>', 'address of an OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter, ...)')
    .option('--model <name>', 'model name')
    .option('--validator-model <name>', "act mode: the validator's model (default: the same model)")
    .addOption(new Option('--approve <which>', 'answer approvals automatically').choices(['all', 'none']))
    .option('--steps <n>', 'iteration budget (default 20)')
    .option('--max-cost <dollars>', 'stop when the model has cost this much (state saved); --resume with a new --max-cost goes on')
    .option('--timeout <seconds>', 'how long a command runs in the foreground before it goes on in the background (default 10)')
    .option('--memory-chars <n>', 'summarize older steps once the history passes this many characters (default 24000)')
    .option('--cwd <dir>', 'on this machine: where commands start (default: the current folder)')
    .option('--resume <session>', 'continue a saved session (its id, or "latest") after a crash or Ctrl+C')
    .option('--sessions', 'list the saved sessions and exit')
    .option('--sessions-dir <dir>', "where sessions are kept (default: Deputy's data folder)")
    .option('--rules <file>', 'the shell rules file (default: shell-rules.json in the data folder)')
    .action(async (words: string[], flags: ShellFlags & { sessions?: boolean }) => setExitCode(await shellCommand(words, flags)));
}

/**
 * Runs the task in this process and prints it live. Ctrl+C stops it (its running commands are ended) and leaves the
 * session resumable. Exits 0 only when the objective was reported reached, 130 when stopped, 1 otherwise.
 */
export async function shellCommand(words: string[], flags: ShellFlags & { sessions?: boolean }): Promise<number> {
  const write = (line: string): void => void process.stdout.write(`${line}\n`);
  const pathEnv = currentPathEnv();
  const paths = shellPaths(pathEnv);
  const sessionsRoot = flags.sessionsDir ?? paths.sessionsRoot;
  if (flags.sessions) {
    const sessions = await listSessions(sessionsRoot);
    if (sessions.length === 0) write(`No shell sessions in ${sessionsRoot}.`);
    for (const s of sessions) write(`${s.sessionId}  ${s.status}${s.resumable ? ' (resumable)' : ''}  ${s.target}  ${s.objective.slice(0, 80)}`);
    return 0;
  }
  let settings;
  try {
    settings = shellSettings(words, flags, process.env);
  } catch (error) {
    throw error instanceof AppError ? new UsageError(error.message) : error;
  }
  let resume = settings.resume;
  if (resume === 'latest') {
    resume = (await listSessions(sessionsRoot)).find((s) => s.resumable)?.sessionId;
    if (resume === undefined) throw new UsageError(`No unfinished shell session in ${sessionsRoot} to resume.`);
  }
  const log = createLogger('shell', [streamSink(process.stderr)], process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const provider = createProvider(settings.provider, { browser: false });
  const validator = createValidator(createProvider({ ...settings.validator, maxRetries: 1 }, { browser: false }), { timeoutMs: VALIDATOR_TIMEOUT_MS, now: () => Date.now() });
  const prompts = terminalPrompts({ input: process.stdin, output: process.stdout }, settings.approve);
  const printer = shellPrinter(write, () => Date.now());
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const session = await openShellSession({
      target: settings.target,
      sessionsRoot,
      ...(resume === undefined ? {} : { resume }),
      prompts: {
        confirmHostKey: (request) =>
          prompts.confirm(
            `The authenticity of host ${request.host}:${request.port} can't be established.\n${request.keyType} key fingerprint is ${request.fingerprint}.\nTrust it and connect? It will be added to ${request.knownHostsFile}.`,
            controller.signal,
          ),
        secret: (request) => prompts.secret(request.kind === 'sudo' ? `${request.target} asks: ${request.prompt}` : request.prompt, controller.signal),
      },
      home: pathEnv.home,
      localUser: userInfo().username,
      env: process.env,
      cwd: settings.cwd ?? process.cwd(),
      onEvent: (event) => printer.event(event),
      logger: log,
      now: () => Date.now(),
    });
    const objective = session.saved?.objective ?? settings.objective;
    const mode = session.saved?.mode ?? settings.mode;
    write(`deputy shell: ${objective}${session.saved ? ' (resumed)' : ''}`);
    write(`  target ${session.description}`);
    write(`  model ${provider.label}/${provider.model}, mode ${mode === 'ask' ? 'ask (you approve each command)' : `act (validator ${settings.validator.model} approves each command)`}`);
    write(`  session ${session.sessionId}: ${session.paths.log}`);
    let state;
    try {
      state = await runShellTask({
        session,
        objective,
        mode,
        provider,
        validator,
        approve: prompts.approver,
        askUser: prompts.askUser,
        rulesFile: settings.rulesFile ?? paths.rulesFile,
        maxSteps: settings.maxSteps,
        ...(settings.maxCostUsd === undefined ? {} : { maxCostUsd: settings.maxCostUsd }),
        waitMs: settings.waitMs,
        memoryChars: settings.memoryChars,
        signal: controller.signal,
        onTrace: (record) => printer.trace(record),
        logger: log,
        now: () => Date.now(),
      });
    } finally {
      const running = session.service.list().filter((p) => p.status === 'running');
      if (running.length > 0) write(`  stopping what still runs: ${running.map((p) => p.id).join(', ')}`);
      await session.close();
    }
    write(`${state.status}: ${state.outcome?.summary ?? state.endReason ?? ''}`);
    if (stoppedAtCostCap(state)) write(`  continue with: deputy shell --resume ${session.sessionId} --max-cost DOLLARS`);
    else if (state.status === 'stopped') write(`  resume with: deputy shell --resume ${session.sessionId}`);
    return state.status === 'completed' ? 0 : state.status === 'stopped' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    prompts.close();
  }
}

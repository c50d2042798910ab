import { versionCommand } from './cli/version-command';

/**
 * Entry of the `deputy` binary. The browser starts a native host with the caller's origin as the first argument
 * (and on Windows a --parent-window flag), so that form means host mode too.
 *
 * The three starts that something waits on go straight to their module, each loaded with `await import()`: the
 * browser's host (its hello has seconds at most), `deputy mcp` (a coding agent gives up on a slow `initialize`) and
 * `--version`. Everything else builds the whole command line. Each command loads its heavy libraries where it first
 * needs them, so even that costs little more than Node's own start.
 */
async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  const startedByBrowser = args[0]?.startsWith('chrome-extension://') === true;
  try {
    if (startedByBrowser || args[0] === 'native-host') {
      await slowStartForTests();
      const { hostCommand } = await import('./host/host-command');
      return await hostCommand();
    }
    if (args.length === 1 && args[0] === 'mcp') {
      const { mcpCommand } = await import('./cli/mcp-command');
      return await mcpCommand();
    }
    if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
      return versionCommand();
    }
    return await fullCommandLine(args);
  } catch (error) {
    const [{ AppError }, { UsageError }] = await Promise.all([import('../shared/errors'), import('./cli/usage-error')]);
    if (error instanceof UsageError) {
      process.stderr.write(`deputy: ${error.message}\n`);
      return 2;
    }
    if (error instanceof AppError) {
      process.stderr.write(`deputy: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`deputy: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

/**
 * Test-only: DEPUTY_TEST_SLOW_START_MS holds the host's start back by that many milliseconds before it loads its code,
 * as a busy machine does, so the tests can prove the extension and doctor wait for a slow host (issue 25). Unset, it
 * costs nothing; everything after it is the product's own path.
 */
async function slowStartForTests(): Promise<void> {
  const ms = Number(process.env.DEPUTY_TEST_SLOW_START_MS ?? 0);
  if (Number.isFinite(ms) && ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

async function fullCommandLine(args: string[]): Promise<number> {
  const [{ CommanderError }, { buildProgram }, { realCliEnv }] = await Promise.all([import('commander'), import('./cli/program'), import('./cli/cli-env')]);
  let exitCode = 0;
  const program = buildProgram(
    (code) => (exitCode = code),
    () => realCliEnv(import.meta.url),
  );
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
}

process.exitCode = await main(process.argv);

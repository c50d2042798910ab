import { CommanderError } from 'commander';
import { AppError } from '../shared/errors';
import { realCliEnv } from './cli/cli-env';
import { buildProgram } from './cli/program';
import { UsageError } from './cli/usage-error';

/**
 * Entry of the `deputy` binary. The browser starts a native host with the caller's origin as the first argument
 * (and on Windows a --parent-window flag), so that form means host mode too.
 */
async function main(argv: string[]): Promise<number> {
  const args = argv.slice(2);
  const startedByBrowser = args[0]?.startsWith('chrome-extension://') === true;
  let exitCode = 0;
  const program = buildProgram(
    (code) => (exitCode = code),
    () => realCliEnv(import.meta.url),
  );
  try {
    await program.parseAsync(startedByBrowser ? ['native-host', ...args] : args, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
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

process.exitCode = await main(process.argv);

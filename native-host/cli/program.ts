import { Command } from 'commander';
import { desktopWorkerMain } from '../desktop/desktop-worker';
import { hostCommand } from '../host/host-command';
import { HOST_VERSION } from '../version';
import { registerLoopCommands } from './loop-command';

export interface CliResult {
  exitCode: number;
}

/** Builds the `deputy` command line. Each subcommand's logic lives in its own module; this file only wires. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('deputy')
    .description('Deputy: the native host and command line of the Deputy agent')
    .version(HOST_VERSION, '-v, --version')
    .showHelpAfterError('(run `deputy --help` for usage)')
    .exitOverride();

  program
    .command('native-host', { hidden: true })
    .description('speak native messaging on stdio (started by the browser)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => setExitCode(await hostCommand()));

  program
    .command('desktop-worker', { hidden: true })
    .description('drive the screen, mouse and keyboard for the host (started by the host over IPC)')
    .action(async () => setExitCode(await desktopWorkerMain()));

  registerLoopCommands(program, setExitCode);

  return program;
}

import { Command, Option } from 'commander';
import { desktopWorkerMain } from '../desktop/desktop-worker';
import { hostCommand } from '../host/host-command';
import { HOST_VERSION } from '../version';
import { registerDesktopCommand } from './desktop-command';
import { registerLoopCommands } from './loop-command';
import { registerShellCommand } from './shell-command';
import { registerMailCommands } from './mail-command';
import { registerMcpCommand } from './mcp-command';
import { registerSchedulesCommands } from './schedules-command';
import type { CliEnv } from './cli-env';
import { registerCompareCommand } from './compare-command';
import { doctorCommand } from './doctor-command';
import { installCommand } from './install-command';
import { uninstallCommand } from './uninstall-command';

export interface CliResult {
  exitCode: number;
}

const browserOption = (verb: string): Option =>
  new Option('--browser <list>', `comma-separated browsers to ${verb}: chrome, chromium, brave, edge, or all`);
const userDataDirOption = (verb: string): Option =>
  new Option('--user-data-dir <dir>', `${verb} one browser profile folder (its NativeMessagingHosts/); Linux test profiles`);

/**
 * Builds the `deputy` command line. Each subcommand's logic lives in its own module; this file only wires.
 * `cliEnv` is called only by the commands that need the machine (install, uninstall, doctor).
 */
export function buildProgram(setExitCode: (code: number) => void, cliEnv: () => CliEnv): Command {
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

  registerDesktopCommand(program, setExitCode);

  program
    .command('desktop-worker', { hidden: true })
    .description('drive the screen, mouse and keyboard for the host (started by the host over IPC)')
    .action(async () => setExitCode(await desktopWorkerMain()));

  registerLoopCommands(program, setExitCode);
  registerCompareCommand(program, setExitCode);

  registerShellCommand(program, setExitCode);
  registerMailCommands(program, setExitCode);
  registerMcpCommand(program, setExitCode);
  registerSchedulesCommands(program, setExitCode);

  program
    .command('install')
    .description('register the native host with Chrome, Chromium, Brave and Edge (default: those found for this user)')
    .addOption(browserOption('register'))
    .addOption(userDataDirOption('register in'))
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--extension-id <ids>', "also allow these extension ids, comma-separated: a copy of Deputy from a store (its side panel shows the id)")
    .action(async (options: { browser?: string; userDataDir?: string; dryRun?: boolean; extensionId?: string }) =>
      setExitCode(await installCommand(options, cliEnv())),
    );

  program
    .command('uninstall')
    .description('remove what install wrote: manifests, registry keys and the launcher (default: every browser)')
    .addOption(browserOption('unregister'))
    .addOption(userDataDirOption('unregister from'))
    .option('--dry-run', 'print what would be removed, remove nothing')
    .action(async (options: { browser?: string; userDataDir?: string; dryRun?: boolean }) =>
      setExitCode(await uninstallCommand(options, cliEnv())),
    );

  program
    .command('doctor')
    .description('check what is installed for each browser and try a real hello round trip through it; check the mailbox settings')
    .addOption(browserOption('check'))
    .addOption(userDataDirOption('check'))
    .option('--json', 'print the report as JSON')
    .option('--mail-config <file>', 'check this mail settings file (default: $DEPUTY_MAIL_CONFIG, else mail.json in the data folder)')
    .action(async (options: { browser?: string; userDataDir?: string; json?: boolean; mailConfig?: string }) =>
      setExitCode(await doctorCommand(options, cliEnv())),
    );

  return program;
}

import { EXTENSION_ORIGIN, NATIVE_HOST_NAME, PROTOCOL_VERSION } from '../../shared/constants';
import { ALL_BROWSERS } from '../install/browsers';
import { CHECKOUT_COMMANDS, type HostCommands } from '../install/host-script';
import { diagnose, SLOW_START_MS, type DoctorReport, type TargetReport } from '../install/doctor';

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
import { checkMailbox, type MailboxReport } from '../mail/mail-doctor';
import { mailEnv, mailSettingsFile, mailSourceFactory } from '../mail/mail-settings';
import { hostLogFile, type PathEnv } from '../paths';
import type { ClaudeStatus } from '../loop/fixer-preflight';
import type { CliEnv } from './cli-env';
import { chooseTargets, listNames, row, type TargetOptions } from './target-options';

export interface DoctorOptions extends TargetOptions {
  json?: boolean;
  /** The mail settings file to check (default: $DEPUTY_MAIL_CONFIG, else mail.json in the data folder if there). */
  mailConfig?: string;
}

/** The mailbox part of doctor: only when mail settings exist (or were named), so it never gets in the way otherwise. */
async function mailboxReport(options: DoctorOptions, cli: CliEnv): Promise<MailboxReport> {
  const pathEnv: PathEnv = { platform: cli.os, home: cli.home, env: cli.env };
  const where = mailSettingsFile(pathEnv, options.mailConfig);
  const env = mailEnv(pathEnv, where.file);
  return checkMailbox(where.file, where.explicit, { env, createSource: mailSourceFactory(env) });
}

function printMailbox(report: MailboxReport, cli: CliEnv): void {
  if (!report.configured) {
    cli.out(`Mailbox   not configured (no ${report.file}; needed only for output that arrives by email)`);
    return;
  }
  cli.out(`Mailbox   ${report.ok ? 'ok' : 'BROKEN'}: ${report.file}`);
  for (const check of report.checks) cli.out(`  ${check.ok ? 'ok ' : 'NO '} ${check.name.padEnd(18)}${check.detail}`);
}

/**
 * `deputy doctor`: what is installed for each browser, where, what is wrong, and whether a real hello round trip
 * through the registered launcher works, and the mailbox settings when there are any. Exits 1 when no browser can use
 * the host or the configured mailbox cannot be used.
 */
export async function doctorCommand(options: DoctorOptions, cli: CliEnv): Promise<number> {
  const chosen = chooseTargets(options, cli);
  const report = await diagnose(
    {
      os: cli.os,
      home: cli.home,
      env: cli.env,
      browsers: chosen.browsers ?? ALL_BROWSERS,
      userDataDir: chosen.userDataDir,
      currentHostScript: cli.hostScript,
      currentVersion: cli.version,
    },
    { fs: cli.fs, run: cli.run, probe: cli.probe },
  );
  const logFile = hostLogFile({ platform: cli.os, home: cli.home, env: cli.env });
  const advice = adviceFor(report, cli.commands);
  const claude = await cli.claudeStatus?.();
  if (claude?.problem) advice.push(`Fix loop: ${claude.problem}.`);
  const mailbox = await mailboxReport(options, cli);
  const exitCode = report.usable && mailbox.ok ? 0 : 1;
  if (options.json) {
    cli.out(
      JSON.stringify(
        {
          deputyVersion: cli.version,
          platform: cli.os,
          hostName: NATIVE_HOST_NAME,
          extensionOrigin: EXTENSION_ORIGIN,
          protocolVersion: PROTOCOL_VERSION,
          logFile,
          usable: report.usable,
          targets: report.targets,
          ...(claude ? { claudeCode: claude } : {}),
          advice,
          mailbox,
        },
        null,
        2,
      ),
    );
    return exitCode;
  }
  cli.out(`Deputy doctor: native host ${NATIVE_HOST_NAME}, deputy ${cli.version}, ${cli.os}`);
  cli.out(`Extension origin: ${EXTENSION_ORIGIN}`);
  cli.out('');
  for (const target of report.targets) printTarget(target, cli);
  cli.out('');
  cli.out(`Host log: ${logFile} (set DEPUTY_LOG_FILE to move it)`);
  if (claude) cli.out(`Claude Code (fix loop): ${describeClaude(claude)}`);
  for (const line of advice) cli.out(line);
  cli.out('');
  printMailbox(mailbox, cli);
  return exitCode;
}

function describeClaude(status: ClaudeStatus): string {
  if (!status.installed) return 'not installed';
  const login = status.loggedIn === undefined ? 'login status unknown (this version has no `claude auth status`)' : status.loggedIn ? `logged in (${status.authMethod ?? 'yes'})` : 'NOT logged in';
  return `${status.version ?? ''} installed, ${login}`;
}

function printTarget(target: TargetReport, cli: CliEnv): void {
  const head = (text: string): void => cli.out(`${target.label.padEnd(10)}${text}`);
  if (target.state === 'not_installed') {
    head(
      target.browserFound || target.id === 'profile'
        ? `not installed (no ${target.registryKey ?? target.manifestPath})`
        : `not installed (${target.label} has no user data folder here)`,
    );
    return;
  }
  if (target.state === 'ok' && target.hello) {
    head(`ok: host ${target.hello.hostVersion} answered hello in ${target.hello.ms} ms (protocol ${target.hello.protocolVersion})`);
    if (target.hello.ms > SLOW_START_MS) cli.out(row('slow', `slow to start (${seconds(target.hello.ms)} s), not broken: the extension waits for it`));
  } else if (target.state === 'slow') {
    head('slow to start: still starting when doctor stopped waiting (not broken: the browser keeps waiting for it)');
    for (const problem of target.problems) cli.out(`  - ${problem}`);
  } else {
    head('BROKEN');
    for (const problem of target.problems) cli.out(`  - ${problem}`);
  }
  if (target.registryKey !== undefined) cli.out(row('registry', target.registryKey));
  cli.out(row('manifest', target.manifestPath));
  if (target.launcherPath !== undefined) cli.out(row('launcher', target.launcherPath));
  if (target.runs !== undefined) cli.out(row('runs', `${target.runs.nodePath} ${target.runs.hostScript}`));
  for (const note of target.notes) cli.out(row('note', note));
}

/** What to do next, in the words the README uses, with the commands of this copy (a checkout, or the package). */
export function adviceFor(report: DoctorReport, commands: HostCommands = CHECKOUT_COMMANDS): string[] {
  const names = (targets: TargetReport[]): string =>
    listNames(targets.map((target) => (target.id === 'profile' ? 'the profile' : target.label)));
  const broken = report.targets.filter((target) => target.state === 'broken');
  const slow = report.targets.filter(
    (target) => target.state === 'slow' || (target.state === 'ok' && (target.hello?.ms ?? 0) > SLOW_START_MS),
  );
  const working = report.targets.filter((target) => target.state === 'ok');
  // A browser that is on this machine but has no registration cannot start the host, whatever the others do.
  const unregistered = report.targets.filter((target) => target.state === 'not_installed' && target.browserFound && target.id !== 'profile');
  const lines: string[] = [];
  if (working.length > 0) lines.push(`Result: the host works for ${names(working)}.`);
  if (broken.length > 0) {
    const protocol = broken.some((target) => target.problems.some((problem) => problem.includes('speaks protocol')));
    const fix = protocol ? commands.rebuildAndInstall : commands.install;
    lines.push(`Problems for ${names(broken)}: run \`${fix}\`${commands.where} to rewrite the launcher and manifests, then run doctor again.`);
  }
  if (unregistered.length > 0 && (working.length > 0 || broken.length > 0 || slow.length > 0)) {
    const ids = unregistered.map((target) => target.id).join(',');
    lines.push(
      `Not registered for ${names(unregistered)}, which ${unregistered.length === 1 ? 'is' : 'are'} on this machine: Deputy in ${unregistered.length === 1 ? 'that browser' : 'those browsers'} cannot start the host. Run \`${commands.installWith(`--browser ${ids}`)}\`${commands.where}.`,
    );
  }
  if (slow.length > 0) {
    lines.push(
      `Slow to start for ${names(slow)}: the machine is busy or the disk is slow. The extension waits for the host and shows "starting" meanwhile; ${commands.benchHost ? `run \`${commands.benchHost}\` to see the start beside a bare Node start, and ` : ''}run doctor again when the machine is quieter.`,
    );
  }
  if (working.length === 0 && broken.length === 0 && slow.length === 0) {
    lines.push(`Result: the Deputy native host is not installed. Run \`${commands.install}\`${commands.where}, then reload the extension.`);
  }
  return lines;
}

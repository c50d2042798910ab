import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { defaultSchedulesFile } from '../schedules/schedules-file';
import { UsageError } from './usage-error';

const out = (line: string): void => void process.stdout.write(`${line}\n`);

interface RunDueOptions {
  profile?: string;
  only?: string;
  file?: string;
  extensionDir?: string;
  timeout?: string;
}

function profileOf(options: { profile?: string }): string {
  const profile = options.profile ?? process.env.DEPUTY_PROFILE;
  if (profile === undefined || profile === '') {
    throw new UsageError(
      'say which browser profile holds your schedules: --profile <folder> (or DEPUTY_PROFILE), the folder chrome://version shows as "Profile Path" without its last part, such as ~/.config/google-chrome',
    );
  }
  return resolve(profile);
}

/** A profile folder that is not there is said before anything is read or run: the schedules stay due. */
function existingProfile(options: { profile?: string }): string {
  const profile = profileOf(options);
  if (!existsSync(profile)) {
    throw new UsageError(
      `there is no browser profile at ${profile}: give --profile the folder chrome://version shows as "Profile Path", without its last part (such as ~/.config/google-chrome). Nothing ran; the due schedules stay due.`,
    );
  }
  return profile;
}

/** `deputy schedules run-due`: the scheduled runs that are due, in a headless browser on the user's profile. */
async function runDueAction(options: RunDueOptions): Promise<number> {
  const profile = existingProfile(options);
  const file = resolve(options.file ?? defaultSchedulesFile());
  const { ProfileInUseError, assertProfileFree } = await import('../browser/profile-lock');
  try {
    await assertProfileFree(profile);
  } catch (error) {
    if (!(error instanceof ProfileInUseError)) throw error;
    // Not a failure for the timer: while the browser is open, its own Deputy runs the schedules (its alarms).
    out(`A browser is open on ${profile}: its Deputy runs the due schedules itself while it is open. Nothing ran here and nothing is lost; once that browser is closed, the next run-due runs what is due.`);
    return 0;
  }
  const script = process.argv[1] ?? '';
  const timeoutMinutes = options.timeout === undefined ? 30 : Number(options.timeout);
  if (!Number.isFinite(timeoutMinutes) || timeoutMinutes <= 0) throw new UsageError('--timeout is in minutes, a number above 0');
  // The browser code loads only when a run is due: a timer that finds nothing due starts and ends at once.
  const { runDue } = await import('../schedules/run-due');
  const result = await runDue({
    file,
    lockFile: `${file}.lock`,
    now: () => Date.now(),
    openBrowser: async () =>
      (await import('../schedules/schedule-browser')).openScheduleBrowser({ profile, extensionDir: resolve(options.extensionDir ?? join(dirname(script), '..', 'dist')) }),
    say: out,
    sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
    pidAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    pid: process.pid,
    runTimeoutMs: timeoutMinutes * 60_000,
    ...(options.only !== undefined ? { only: options.only } : {}),
  });
  return result.exitCode;
}

/** `deputy schedules list`: what the host knows of the extension's schedules (no values: it never has them). */
async function listAction(options: { file?: string }): Promise<number> {
  const file = resolve(options.file ?? defaultSchedulesFile());
  const { readSchedulesFile } = await import('../schedules/schedules-file');
  const saved = await readSchedulesFile(file);
  if (saved.schedules.length === 0) {
    out(`No schedule is known here (${file}): set one in Deputy's panel (Routines), with the host installed (deputy install).`);
    return 0;
  }
  for (const s of saved.schedules) {
    const when = s.nextAt === null ? 'done' : `next ${new Date(s.nextAt).toLocaleString()}`;
    out(`${s.id}  ${s.label}  ${s.every}${s.time ? ` at ${s.time}` : ''}, ${when}${s.lastError ? ` (last: ${s.lastError})` : ''}`);
  }
  return 0;
}

/** `deputy schedules install`: the timer lines that call run-due every few minutes, for the user to add. */
function installAction(options: { profile?: string; every: string }): number {
  const profile = existingProfile(options);
  const minutes = Number(options.every);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 59) throw new UsageError('--every is whole minutes, 1 to 59');
  const command = `"${process.execPath}" "${resolve(process.argv[1] ?? 'deputy')}" schedules run-due --profile "${profile}"`;
  const log = join(dirname(defaultSchedulesFile()), 'schedules.log');
  out(`Scheduled runs happen while your browser is open. To run them when it is closed too, call run-due every ${minutes} minutes:`);
  out('');
  out('With cron (crontab -e), add this line:');
  out(`*/${minutes} * * * * ${command} >> "${log}" 2>&1`);
  out('');
  out('Or with a systemd user timer: ~/.config/systemd/user/deputy-schedules.service');
  out(['[Unit]', 'Description=Deputy: scheduled runs that are due', '[Service]', 'Type=oneshot', `ExecStart=${command}`].join('\n'));
  out('and ~/.config/systemd/user/deputy-schedules.timer');
  out(['[Unit]', 'Description=Deputy: look for due scheduled runs', '[Timer]', `OnCalendar=*:0/${minutes}`, 'Persistent=true', '[Install]', 'WantedBy=timers.target'].join('\n'));
  out('then: systemctl --user daemon-reload && systemctl --user enable --now deputy-schedules.timer');
  out('');
  out('run-due does nothing while the browser is open on that profile (its extension runs them), never approves a step, and a run that needs you is stopped and said.');
  return 0;
}

/** Adds `deputy schedules run-due` and `deputy schedules install`. */
export function registerSchedulesCommands(program: Command, setExitCode: (code: number) => void): void {
  const schedules = program.command('schedules').description('run the schedules set in the extension when the browser is closed');
  schedules
    .command('run-due')
    .description('run every scheduled routine or task whose time has come (a missed one once), headless, on your browser profile')
    .option('--profile <folder>', 'the browser profile folder that holds Deputy (default: $DEPUTY_PROFILE)')
    .option('--file <file>', 'the schedules the extension synced (default: schedules.json in the state folder)')
    .option('--extension-dir <folder>', 'the built extension (default: dist/ beside this program)')
    .option('--timeout <minutes>', 'how long one run may take before it is stopped', '30')
    .option('--only <id>', 'only this schedule (an id from deputy schedules list), when it is due')
    .action(async (options: RunDueOptions) => setExitCode(await runDueAction(options)));
  schedules
    .command('list')
    .description('the schedules the extension synced here, with their next run')
    .option('--file <file>', 'the schedules file (default: schedules.json in the state folder)')
    .action(async (options: { file?: string }) => setExitCode(await listAction(options)));
  schedules
    .command('install')
    .description('print the cron line and the systemd timer that call run-due every few minutes')
    .option('--profile <folder>', 'the browser profile folder that holds Deputy (default: $DEPUTY_PROFILE)')
    .option('--every <minutes>', 'how often to look', '5')
    .action((options: { profile?: string; every: string }) => setExitCode(installAction(options)));
}

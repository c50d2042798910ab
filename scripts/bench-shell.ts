import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRedactor } from '../shared/agent/redactor';
import { createSecretVault } from '../shared/agent/secret-vault';
import { createLocalTarget } from '../native-host/shell/local-target';
import { SessionLog } from '../native-host/shell/session-log';
import { ShellService } from '../native-host/shell/shell-service';
import type { ShellTarget } from '../native-host/shell/shell-target';
import { resolveSshSettings } from '../native-host/shell/ssh/ssh-destination';
import { createSshTarget } from '../native-host/shell/ssh/ssh-target';
import { sshdMissingReason, startSshd } from '../tests/fixtures/ssh/sshd-server';
import { percentile, timings } from './bench/timings';

/**
 * `npm run bench:shell`: what one command costs through Deputy's shell service (spawn, output rendering, redaction,
 * the session log), on this machine and over SSH to a real OpenSSH server on 127.0.0.1, beside the plain tools run in
 * the same moment: `bash -c true`, and `ssh host true` with a new connection each time and over a shared
 * (ControlMaster) connection, which is what Deputy's one connection per session compares with.
 */
const RUNS = 30;
const WARMUP = 3;
const run = promisify(execFile);

interface Figure {
  median: number;
  p90: number;
}

async function measure(work: () => Promise<unknown>, runs = RUNS): Promise<Figure> {
  const sorted = await timings(work, runs, WARMUP);
  return { median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) };
}

async function serviceOn(target: ShellTarget, dir: string): Promise<{ service: ShellService; log: SessionLog }> {
  const redactor = createRedactor(createSecretVault());
  const log = await SessionLog.open(join(dir, `${Date.now()}-log.jsonl`), { redact: (text) => redactor.redact(text), now: () => Date.now() });
  return { service: new ShellService({ target, log, redact: (text) => redactor.redact(text), now: () => Date.now() }), log };
}

async function roundTrip(service: ShellService, command: string): Promise<void> {
  const result = await service.run({ command, waitMs: 30_000 });
  if (result.process.exitCode !== 0) throw new Error(`${command} failed: ${result.output.text}`);
}

const rows: [string, Figure | string][] = [];
const scratch = await mkdtemp(join(tmpdir(), 'deputy-bench-shell-'));
try {
  process.stderr.write('measuring on this machine...\n');
  const local = await serviceOn(createLocalTarget({ cwd: scratch, env: process.env }), scratch);
  rows.push(['this machine: Deputy run "true" (bash on stdin, log, delivery)', await measure(() => roundTrip(local.service, 'true'))]);
  rows.push(['this machine: bash -c true (peer)', await measure(() => run('bash', ['-c', 'true']))]);
  rows.push(['this machine: Deputy run "seq 1 10000" (10k lines rendered, redacted, logged)', await measure(() => roundTrip(local.service, 'seq 1 10000'), 10)]);
  rows.push(['this machine: bash -c "seq 1 10000" (peer)', await measure(() => run('bash', ['-c', 'seq 1 10000']), 10)]);
  await local.log.close();

  const missing = sshdMissingReason();
  if (missing) rows.push(['over SSH', `skipped: ${missing}`]);
  else {
    process.stderr.write('measuring over SSH to a local sshd...\n');
    const server = await startSshd();
    const home = join(scratch, 'home');
    await mkdir(join(home, '.ssh'), { recursive: true, mode: 0o700 });
    await copyFile(join(server.home, '.ssh', 'id_ed25519'), join(home, '.ssh', 'id_ed25519'));
    await writeFile(join(home, '.ssh', 'known_hosts'), `${server.knownHostsLine}\n`);
    try {
      const settings = resolveSshSettings(server.destination, { home, localUser: userInfo().username, env: {} });
      const connectOnce = async (): Promise<void> => {
        const target = createSshTarget({ settings, home, prompts: { confirmHostKey: () => Promise.resolve(false) } });
        await target.connect();
        await target.close();
      };
      rows.push(['SSH: Deputy connect + probe (handshake, key, OS and sudo check)', await measure(connectOnce, 10)]);
      const target = createSshTarget({ settings, home, prompts: { confirmHostKey: () => Promise.resolve(false) } });
      await target.connect();
      const remote = await serviceOn(target, scratch);
      rows.push(['SSH: Deputy run "true" on its open connection', await measure(() => roundTrip(remote.service, 'true'))]);
      const sshArgs = ['-F', '/dev/null', '-i', join(home, '.ssh', 'id_ed25519'), '-o', `UserKnownHostsFile=${join(home, '.ssh', 'known_hosts')}`, '-o', 'BatchMode=yes', '-p', String(server.port)];
      const host = `${server.user}@127.0.0.1`;
      rows.push(['SSH: ssh host true, a new connection each time (peer)', await measure(() => run('ssh', [...sshArgs, host, 'true']), 10)]);
      const control = join(scratch, 'cm');
      const mux = ['-o', 'ControlMaster=auto', '-o', `ControlPath=${control}`, '-o', 'ControlPersist=60'];
      await run('ssh', [...sshArgs, ...mux, host, 'true']);
      rows.push(['SSH: ssh host true over a shared ControlMaster connection (peer)', await measure(() => run('ssh', [...sshArgs, ...mux, host, 'true']))]);
      await run('ssh', [...sshArgs, ...mux, '-O', 'exit', host]).catch(() => undefined);
      await remote.log.close();
      await target.close();
    } finally {
      await server.close();
    }
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const out = [`bench:shell — median and 90th percentile of ${RUNS} runs (10 for the slow rows) after ${WARMUP} warm-ups; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(2) ?? '?'}`, ''];
out.push(`${''.padEnd(82)}${'median'.padStart(12)}${'p90'.padStart(12)}`);
for (const [label, figure] of rows) {
  out.push(typeof figure === 'string' ? `${label.padEnd(82)}${figure}` : `${label.padEnd(82)}${`${figure.median.toFixed(1)} ms`.padStart(12)}${`${figure.p90.toFixed(1)} ms`.padStart(12)}`);
}
process.stdout.write(`${out.join('\n')}\n`);

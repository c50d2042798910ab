import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run test:e2e:loaded [-- FILE...]`: the end-to-end suite (or the files given) beside a CPU load of two busy
 * processes per core, as a user's laptop under load would be. The load is started before the suite and stopped after
 * it, whatever happens: the suite passing or failing, Ctrl-C, or this script being killed. Timings under load mean
 * nothing; what counts is that every test still passes, so a test that waits for time rather than for a state shows
 * up here. DEPUTY_LOAD_PER_CORE changes the two. The suite runs as vitest.e2e.config.ts says (two files at a time);
 * vitest's own flags pass through, so `-- --maxWorkers=1 FILE...` runs the files one at a time.
 */

const perCore = Number(process.env.DEPUTY_LOAD_PER_CORE ?? 2);
if (!Number.isInteger(perCore) || perCore < 0) {
  console.error(`DEPUTY_LOAD_PER_CORE must be a whole number of busy processes per core (0 or more), not "${process.env.DEPUTY_LOAD_PER_CORE}"`);
  process.exit(2);
}
const cores = availableParallelism();
const count = cores * perCore;

// A busy loop that also stops on its own when its parent is gone (its stdin closes), so no spinner outlives the run.
const SPIN = "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume(); const spin = () => { const end = Date.now() + 50; while (Date.now() < end); setImmediate(spin); }; spin();";

const load: ChildProcess[] = [];
for (let i = 0; i < count; i += 1) load.push(spawn(process.execPath, ['-e', SPIN], { stdio: ['pipe', 'ignore', 'inherit'] }));
console.log(`test:e2e:loaded: ${count} busy processes (${perCore} per core, ${cores} cores) beside the suite`);

let stopped = false;
function stopLoad(): void {
  if (stopped) return;
  stopped = true;
  for (const child of load) {
    child.stdin?.end();
    child.kill('SIGKILL');
  }
}
process.on('exit', stopLoad);

// Files to run, and any vitest flags given with them.
const files = process.argv.slice(2);
// vitest itself (no npx between: it would not pass a signal on), in a process group of its own with the browsers and
// hosts it starts, so a stop reaches all of them.
const vitest = join(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');
const detached = process.platform !== 'win32';
const suite = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.e2e.config.ts', ...files], { stdio: 'inherit', detached });

function stopSuite(signal: NodeJS.Signals): void {
  if (suite.exitCode !== null || suite.pid === undefined) return;
  try {
    if (detached) process.kill(-suite.pid, signal);
    else suite.kill(signal);
  } catch {
    // Already gone.
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.log(`test:e2e:loaded: ${signal}: stopping the suite and the load`);
    stopLoad();
    stopSuite(signal);
    // The suite closes its browsers on the signal; what is still there after a few seconds is killed.
    setTimeout(() => {
      stopSuite('SIGKILL');
      process.exit(130);
    }, 5_000).unref();
    suite.once('exit', () => process.exit(130));
  });
}

suite.on('error', (error) => {
  console.error(`test:e2e:loaded: could not start vitest: ${error.message}`);
  stopLoad();
  process.exit(1);
});

suite.on('exit', (code, signal) => {
  if (stopped) return;
  stopLoad();
  console.log(`test:e2e:loaded: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} beside ${count} busy processes; the load is stopped`);
  process.exit(code ?? 1);
});

import { spawn } from 'node:child_process';
import { testHostEnv } from './test-hosts';

/** How a command the tests ran as a user would ended: its exit code and everything it printed. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, in the order they arrived, as a terminal would show them. */
  output: string;
}

/** Keys and browser paths of the machine the tests run on, which no command under test may pick up by accident. */
const MACHINE_NAMES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CHROME_PATH'];

/**
 * The environment for a command under test: this process's, with the tests' `.test` host mapping (DEPUTY_HOST_RULES,
 * test-only), without the machine's keys and browser path (MACHINE_NAMES and `drop`), then `extra` on top (a name in
 * `extra` is kept even when it is one of those).
 */
export function cliEnv(extra: NodeJS.ProcessEnv = {}, drop: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...testHostEnv() };
  for (const name of [...MACHINE_NAMES, ...drop]) delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs a command to its end, as a user would in a terminal (stdin closed unless `stdin` is given), collecting what it
 * prints; `onStdout` sees everything printed so far each time more arrives.
 */
export function runCli(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string; onStdout?: (stdout: string) => void } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? cliEnv(), ...(options.cwd ? { cwd: options.cwd } : {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      output += chunk.toString('utf8');
      options.onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      output += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, output }));
    child.stdin.end(options.stdin ?? '');
  });
}

import { createInterface, type Interface } from 'node:readline/promises';
import { EXIT, exitCodeOf } from './task/exit-codes';
import { runTask, type TaskIo } from './task/run-task';
import { parseTaskFlags } from './task/task-flags';

// `npm run task -- [--url URL] "task"`: one task in Chromium with the built extension. Exit codes: task/exit-codes.ts.
const interrupt = new AbortController();
const onInterrupt = (): void => {
  if (interrupt.signal.aborted) {
    // A second Ctrl-C: the user does not want to wait for the task to stop.
    process.stderr.write('\ntask: quitting without waiting\n');
    process.exit(EXIT.interrupted);
  }
  interrupt.abort();
};
process.on('SIGINT', onInterrupt);
process.on('SIGTERM', onInterrupt);

let json = process.argv.includes('--json');
let terminal: Interface | undefined;
let code: number;
try {
  const options = parseTaskFlags(process.argv.slice(2), process.env);
  json = options.json;
  // With --json, stdout carries only events: questions go to stderr.
  terminal = process.stdin.isTTY ? createInterface({ input: process.stdin, output: json ? process.stderr : process.stdout }) : undefined;
  // While a question waits, the terminal is in raw mode: Ctrl-C reaches readline, not the process.
  terminal?.on('SIGINT', onInterrupt);
  const ask = terminal ? (question: string, signal: AbortSignal) => (terminal as Interface).question(question, { signal }) : undefined;
  const io: TaskIo = { write: (line) => void process.stdout.write(`${line}\n`), ...(ask ? { ask } : {}) };
  code = (await runTask(options, io, {}, interrupt.signal)).exitCode;
} catch (error) {
  code = interrupt.signal.aborted ? EXIT.interrupted : exitCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (message) {
    if (json) process.stdout.write(`${JSON.stringify({ type: 'error', message, exitCode: code })}\n`);
    process.stderr.write(`task: ${message}\n`);
  }
} finally {
  terminal?.close();
}
// Nothing may keep the process alive once the run is over (a half-open socket, a timer of a library).
process.stdout.write('', () => process.exit(code));

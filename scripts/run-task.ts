import { createInterface } from 'node:readline/promises';
import { parseTaskFlags, TaskUsageError } from './task/task-flags';
import { runTask, type TaskIo } from './task/run-task';

// `npm run task -- --url URL "task"`: one task in Chromium with the built extension. Exit 0 only on success.
try {
  const options = parseTaskFlags(process.argv.slice(2), process.env);
  const terminal = process.stdin.isTTY ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const io: TaskIo = { write: (line) => process.stdout.write(`${line}\n`), ...(terminal ? { ask: (q: string) => terminal.question(q) } : {}) };
  const run = await runTask(options, io);
  terminal?.close();
  process.exitCode = run.exitCode;
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`task: ${message}\n`);
  process.exitCode = error instanceof TaskUsageError ? 2 : 1;
}

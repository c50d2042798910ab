import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * How long the fix loop's guard hook takes per tool call, as Claude Code starts it (a new Node process, the call as
 * JSON on stdin), beside its peer: the same decision through the whole host CLI (`deputy loop-hook`), which is what
 * the hook was before it got its own small file. Run `npm run build:host` first.
 */
const dir = mkdtempSync(join(tmpdir(), 'deputy-bench-hook-'));
const rules = join(dir, 'rules.json');
writeFileSync(rules, JSON.stringify({ repo: dir, protectedPaths: [], allowedPaths: [], fabricationPatterns: [], protectedFiles: ['.env'] }));
const calls = [
  { tool_name: 'Edit', tool_input: { file_path: join(dir, 'src/app.ts'), old_string: 'a', new_string: 'b' } },
  { tool_name: 'Bash', tool_input: { command: "sed -i 's/a/b/' .env && npm test 2>&1 | tail -5" } },
].map((call) => JSON.stringify({ ...call, cwd: dir, hook_event_name: 'PreToolUse' }));
const ROUNDS = 15;

function median(command: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, command, { input: calls[i % calls.length] });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const root = resolve(import.meta.dirname, '..');
const rows: Array<[string, number]> = [
  ['node -e "" (Node start, the floor)', median(['-e', ''])],
  ['dist-host/loop-hook.mjs (the hook)', median([join(root, 'dist-host/loop-hook.mjs'), '--rules', rules])],
  ['dist-host/deputy.mjs loop-hook (whole CLI)', median([join(root, 'dist-host/deputy.mjs'), 'loop-hook', '--rules', rules])],
];
process.stdout.write(`guard hook, median of ${ROUNDS} calls (an Edit and a Bash command in turn)\n`);
for (const [name, ms] of rows) process.stdout.write(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms\n`);

import { readFileSync } from 'node:fs';
import { loopRedact } from './loop/redact-command';

/**
 * The fixer's redaction (the PostToolUse hook and the shell prefix, see loop/redact-command.ts), built as its own small
 * file (dist-host/loop-redact.mjs) because Claude Code starts it for every tool call and every shell command.
 */
process.exitCode = await loopRedact(process.argv.slice(2), {
  stdin: () => readFileSync(0, 'utf8'),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  onSignal: (forward) => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => forward(signal));
  },
});

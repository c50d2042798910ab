import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { evalHtml } from './eval/eval-html';
import { failuresOf, parseReport } from './eval/eval-report';
import { parseEvalFlags } from './eval/eval-flags';
import { formatComparison } from './eval/eval-table';
import { runEval } from './eval/run-eval';
import { runExpressible } from './eval/expressible/run-expressible';
import { EXIT, exitCodeOf } from './task/exit-codes';

// `npm run eval -- [flags]`: suites of web tasks through the built extension, or --compare of earlier reports.
// Exit codes: 0 every task solved, 1 a report was written and some task was not solved, 2 a mistake in the command
// line, 3 the model server, 4 the browser or the build, 130 Ctrl-C (the report of what ran is still written).
const interrupt = new AbortController();
const onInterrupt = (): void => {
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  process.stderr.write('\neval: stopping the running tasks and writing the report (Ctrl-C again quits at once)\n');
  interrupt.abort();
};
process.on('SIGINT', onInterrupt);
process.on('SIGTERM', onInterrupt);

const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function readReport(path: string) {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw Object.assign(new Error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`), { exitCode: EXIT.usage });
  });
  try {
    return parseReport(text, path);
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { exitCode: EXIT.usage });
  }
}

let code: number;
try {
  const command = parseEvalFlags(process.argv.slice(2), process.env);
  if (command.kind === 'compare') {
    const reports = await Promise.all(command.files.map(readReport));
    for (const line of formatComparison(reports)) say(line);
    await mkdir(command.out, { recursive: true });
    await writeFile(join(command.out, 'compare.html'), evalHtml(reports));
    say(`Comparison: ${join(command.out, 'compare.html')}`);
    code = EXIT.success;
  } else if (command.kind === 'expressible') {
    if (!existsSync('dist/manifest.json')) throw Object.assign(new Error('The extension is not built: run `npm run build` first.'), { exitCode: EXIT.browser });
    const verdicts = await runExpressible(command, say);
    code = verdicts.every((verdict) => verdict.solved) ? EXIT.success : EXIT.notDone;
  } else {
    for (const note of command.notes) say(note);
    const rerun = command.rerunPath ? { path: command.rerunPath, report: await readReport(command.rerunPath) } : null;
    if (rerun) say(`Running again the ${failuresOf(rerun.report).length} task(s) ${rerun.path} did not count as solved.`);
    const { report } = await runEval({ ...command.options, rerun }, say, {}, interrupt.signal);
    code = interrupt.signal.aborted ? EXIT.interrupted : report.totals.solved === report.totals.tasks ? EXIT.success : EXIT.notDone;
  }
} catch (error) {
  code = interrupt.signal.aborted ? EXIT.interrupted : exitCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (message) process.stderr.write(`eval: ${message}\n`);
}
process.stdout.write('', () => process.exit(code));

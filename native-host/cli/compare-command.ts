import { mkdirSync, writeFileSync } from 'node:fs';
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { AppError } from '../../shared/errors';
import { formatReport } from '../documents/format-findings';
import { writeReport } from '../documents/html-report';
import { judgeDocument, learnRules } from '../documents/judge-document';
import { judgeAgainstReference } from '../documents/judge-reference';
import { DEFAULT_LIMITS, type PackageLimits } from '../documents/open-package';
import { findRenderTools, INSTALL_HINT } from '../documents/render-pages';
import { loadRules, type Rules } from '../documents/rules';
import { UsageError } from './usage-error';

interface CompareOptions {
  template?: string;
  reference?: string;
  rules?: string;
  json?: boolean;
  report?: string;
  images?: boolean;
  learn?: string;
  out?: string;
  maxSize?: number;
}

const megabytes = (value: string): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a size in MB above 0');
  return number;
};

/** Exit codes of `deputy compare`: 0 no critical or high finding, 1 such findings, 2 a usage mistake or unreadable input. */
export const COMPARE_EXIT = { passed: 0, findings: 1, badInput: 2 } as const;

function limitsFor(options: CompareOptions): PackageLimits {
  if (options.maxSize === undefined) return DEFAULT_LIMITS;
  const bytes = options.maxSize * 1024 * 1024;
  return { maxFileBytes: bytes, maxUnpackedBytes: Math.max(DEFAULT_LIMITS.maxUnpackedBytes, bytes * 5) };
}

/** Bad input is the caller's to fix, like a usage mistake: exit 2 with the message that says what to do. */
async function asInputError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof UsageError)) throw new UsageError(error.message);
    throw error;
  }
}

async function learnAction(options: CompareOptions): Promise<number> {
  if (!options.out) throw new UsageError('--learn needs --out <rules.json>: where to write the rules for you to review');
  const rules = await asInputError(() => learnRules(options.learn!, { limits: limitsFor(options) }));
  const file: Rules = { notes: `Learned from ${options.learn} on ${new Date().toISOString().slice(0, 10)}: review every value, delete what should not be enforced, and add notes for the fixer here.`, ...rules };
  writeFileSync(options.out, `${JSON.stringify(file, null, 2)}\n`);
  process.stdout.write(`Wrote the rules learned from ${options.learn} to ${options.out}. Review them, then compare with: deputy compare OUTPUT --rules ${options.out}\n`);
  return COMPARE_EXIT.passed;
}

async function compareAction(output: string | undefined, options: CompareOptions): Promise<number> {
  if (options.learn) {
    if (output) throw new UsageError('--learn reads one known-good document: pass it to --learn alone, without an output to compare');
    return learnAction(options);
  }
  if (!output) throw new UsageError('name the output document to compare: deputy compare output.pptx --template reference.pptx');
  if (options.template && options.reference)
    throw new UsageError('give either --template (a document the output must look like) or --reference (the expected output, whose values must match too), not both');
  if (!options.template && !options.reference && !options.rules) throw new UsageError('give a --template to compare with, a --reference (an expected output), or a --rules file made by --learn');
  const rules = options.rules ? await asInputError(() => Promise.resolve(loadRules(options.rules!))) : {};
  const judgement = await asInputError(() =>
    options.reference
      ? judgeAgainstReference(output, options.reference, rules, { limits: limitsFor(options) })
      : judgeDocument(output, options.template, rules, { limits: limitsFor(options) }),
  );
  let report: Awaited<ReturnType<typeof writeReport>> | undefined;
  if (options.report) {
    mkdirSync(options.report, { recursive: true });
    report = await writeReport(judgement, options.report, options.images === false ? undefined : findRenderTools());
  }
  const exitCode = judgement.passed ? COMPARE_EXIT.passed : COMPARE_EXIT.findings;
  if (options.json) {
    const { rules: _rules, ...plain } = judgement;
    process.stdout.write(`${JSON.stringify({ ...plain, exitCode, ...(report ? { report } : {}) }, null, 2)}\n`);
    return exitCode;
  }
  process.stdout.write(formatReport(judgement));
  if (report) {
    process.stdout.write(`Report: ${report.html}\n`);
    if (report.imagesNote) process.stdout.write(`${report.imagesNote}\n`);
  } else {
    const tools = findRenderTools();
    process.stdout.write(tools.soffice && tools.pdftoppm ? 'Add --report DIR for an HTML report with the output and the reference side by side.\n' : `Add --report DIR for an HTML report (pages side by side need LibreOffice: ${INSTALL_HINT}).\n`);
  }
  return exitCode;
}

/** Adds `deputy compare`: an output document judged against its reference template. */
export function registerCompareCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('compare')
    .description('compare an output .pptx, .xlsx or .docx with its reference template: findings by severity, location and fix (exit 0 none critical or high, 1 findings, 2 bad input)')
    .argument('[output]', 'the document to judge')
    .option('--template <file>', 'the reference document the output must match (same kind)')
    .option('--reference <file>', 'an expected output (not a template): its structure and formatting, and every number and text too, with the cell, slide or paragraph that differs')
    .option('--rules <file>', 'a rules.json that tunes or replaces what is learned from the template')
    .option('--json', 'print the judgement as JSON')
    .option('--report <dir>', 'write report.html (with the pages side by side where LibreOffice is installed) and findings.json there')
    .option('--no-images', 'with --report: do not draw the pages')
    .option('--learn <file>', 'derive a rules file from a known-good document instead of comparing')
    .option('--out <file>', 'with --learn: where to write the rules')
    .option('--max-size <MB>', 'the largest document accepted (default 100)', megabytes)
    // Commander's own usage errors (an unknown option, a bad --max-size) exit 1 by default; here 1 means findings.
    .exitOverride((error) => {
      throw error.exitCode === 1 ? new CommanderError(COMPARE_EXIT.badInput, error.code, error.message) : error;
    })
    .action(async (output: string | undefined, options: CompareOptions) => setExitCode(await compareAction(output, options)));
}

import { mkdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { DocumentVerdict, FailureItem, LoopConfig } from '../../shared/protocol/loop-protocol';
import {
  DEFAULT_LIMITS,
  findRenderTools,
  formatForFixer,
  judgeReadDocument,
  loadRules,
  readDocument,
  writeReport,
  type Finding,
  type Judgement,
  type PackageLimits,
} from '../documents';
import type { CheckOutcome, CheckRunner, LoopContext } from './loop-context';

type DocumentSpec = NonNullable<LoopConfig['document']>;

/** The folder of one iteration's report: per loop and iteration, inside the repo's loop folder. */
export function iterationDir(context: LoopContext): string {
  const { state, deps } = context;
  return join(deps.paths.dir, 'runs', state.loopId.slice(0, 8), `iteration-${state.iteration}`);
}

const inRepo = (repo: string, path: string): string => (isAbsolute(path) ? path : resolve(repo, path));

function limitsOf(spec: DocumentSpec): PackageLimits {
  if (spec.maxSizeMb === undefined) return DEFAULT_LIMITS;
  const bytes = spec.maxSizeMb * 1024 * 1024;
  return { maxFileBytes: bytes, maxUnpackedBytes: Math.max(DEFAULT_LIMITS.maxUnpackedBytes, bytes * 5) };
}

/**
 * Before a loop starts: the template can be read and the rules are valid, so a typo in a path is said at once, next
 * to the field, not after the first run of the job.
 */
export async function preflightDocument(repo: string, spec: DocumentSpec): Promise<void> {
  if (spec.rules) {
    const path = inRepo(repo, spec.rules);
    try {
      loadRules(path);
    } catch (error) {
      throw new AppError('bad_request', `The output rules ${path} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (spec.template) {
    const path = inRepo(repo, spec.template);
    try {
      await readDocument(path, limitsOf(spec));
    } catch (error) {
      throw new AppError('bad_request', `The output template ${path} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A finding as one of the check's failures: the id names where and which rule, so the same defect keeps its id. */
export function findingToFailure(finding: Finding): FailureItem {
  const message = `${finding.message}. Expected ${finding.expected}; found ${finding.actual}. Fix: ${finding.fix}`;
  return { id: `${finding.location.label} [${finding.rule}]`.slice(0, 500), message: message.slice(0, 4000), severity: finding.severity, location: finding.location.label.slice(0, 500) };
}

/** Why the loop stops on a hollow output, with what to do: the data is missing, and no code polish brings it back. */
function hollowReason(judgement: Judgement, report: string | undefined): string {
  const hollow = judgement.findings.find((finding) => finding.rule === 'content.hollow');
  const what = hollow ? `${hollow.message} (${hollow.actual})` : judgement.summary;
  return `Needs a human: the output ${basename(judgement.output)} is hollow. ${what}. The data does not reach the document, so the loop stops instead of asking the fixer to polish details: check the job's data source (its inputs, credentials, the upstream API), then start the loop again${report ? `. Report: ${report}` : ''}`;
}

/** An output that cannot be read at all is the service's defect to fix (a truncated write, the wrong format), not a reason to stop. */
function unreadable(error: AppError, output: string): CheckOutcome {
  const item: FailureItem = { id: 'document [document.unreadable]', message: `${error.message} Fix the code that writes ${basename(output)}.`.slice(0, 4000), severity: 'critical', location: 'document' };
  return {
    passed: false,
    format: 'document',
    findings: [item],
    fixerText: `The output document cannot be read, so it could not be compared with its template.\n\n## Critical (1)\n- ${item.message}`,
  };
}

/**
 * Document mode's check: the iteration's output document judged against the template (and rules), its report
 * (report.html, findings.json, the pages side by side where LibreOffice is installed) written into the loop's run
 * folder, and its findings returned as the check's failures, by severity. A hollow output halts the loop. It does not
 * care how the output arrived (a folder, a URL, a mailbox): it judges the file it is given.
 */
export function documentCheck(spec: DocumentSpec): CheckRunner {
  return async (context, outputFile) => {
    const { state } = context;
    if (outputFile === undefined) {
      throw new AppError('bad_request', 'Document mode has no output to judge in this iteration: set "output" in the loop definition (a folder and file pattern, or a URL) so each run of the job is found');
    }
    const limits = limitsOf(spec);
    const rules = spec.rules ? loadRules(inRepo(state.repo, spec.rules)) : {};
    let model;
    try {
      model = await readDocument(outputFile, limits);
    } catch (error) {
      if (error instanceof AppError) return unreadable(error, outputFile);
      throw error;
    }
    const judgement = await judgeReadDocument(model, spec.template ? inRepo(state.repo, spec.template) : undefined, rules, { limits });
    const dir = iterationDir(context);
    mkdirSync(dir, { recursive: true });
    const report = await writeReport(judgement, dir, spec.images ? findRenderTools() : undefined);
    // Why the pages are not drawn is the same every iteration: said once, and in every report.
    if (report.imagesNote && spec.images && state.iteration === 1) context.emit({ type: 'notice', level: 'info', message: report.imagesNote });
    const document: DocumentVerdict = {
      kind: judgement.kind,
      output: outputFile,
      summary: judgement.summary,
      counts: judgement.counts,
      hollow: judgement.hollow,
      reportPath: report.html,
      findingsPath: report.json,
    };
    return {
      passed: judgement.passed && !judgement.hollow,
      format: judgement.kind,
      findings: judgement.findings.map(findingToFailure),
      fixerText: formatForFixer(judgement),
      document,
      ...(judgement.hollow ? { halt: hollowReason(judgement, report.html) } : {}),
    };
  };
}

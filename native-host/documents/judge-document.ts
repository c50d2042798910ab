/**
 * Output documents judged against a reference template: the fix loop's judge, and `deputy compare`.
 *
 * API for callers (the loop, the CLI):
 * - `judgeDocument(outputPath, templatePath, rules?, options?)` reads both files (a .pptx, .xlsx or .docx; the same
 *   kind), learns the template's rules, lets the user's rules override them field by field, and returns
 *   `{ findings, counts, hollow, passed, summary, ... }`. `templatePath` may be undefined when `rules` carry
 *   everything (a file made by `learnRules`). Findings are sorted most severe first; `passed` means no critical or
 *   high finding; `hollow` means more than half the content is empty, so a loop should stop rather than iterate.
 * - `learnRules(path)` derives a rules file from a known-good document, for the user to review and keep.
 * - `formatForFixer` (format-findings.ts) groups findings by severity for a fixer prompt.
 * Bad input (missing, empty, corrupt, encrypted, legacy, oversized files, a template of another kind, bad rules)
 * throws AppError with a message that names the file and says what to do.
 */
import { AppError } from '../../shared/errors';
import { checkDocx } from './check-docx';
import { checkPptxContent } from './check-pptx-content';
import { checkPptxFormat } from './check-pptx-format';
import { checkPptxShapes } from './check-pptx-shapes';
import { checkPptxStructure } from './check-pptx-structure';
import { checkXlsx } from './check-xlsx';
import { contentScanner } from './content-scan';
import type { DocumentModel } from './document-model';
import { readDocx } from './docx-reader';
import { countBySeverity, sortFindings, type Finding, type Severity } from './finding';
import { FindingList } from './finding-list';
import { learnDocx } from './learn-docx';
import { learnPptx } from './learn-pptx';
import { learnXlsx } from './learn-xlsx';
import { aKind, DEFAULT_LIMITS, KIND_LABEL, openPackage, type DocumentKind, type PackageLimits } from './open-package';
import { readDeck } from './pptx-reader';
import { alignSlides } from './slide-alignment';
import { mergeRules, type Rules } from './rules';
import { readWorkbook } from './xlsx-reader';

export interface Judgement {
  kind: DocumentKind;
  output: string;
  template?: string;
  findings: Finding[];
  counts: Record<Severity, number>;
  hollow: boolean;
  /** No critical and no high finding. */
  passed: boolean;
  summary: string;
  /** The template's reference notes from the rules, for the fixer. */
  notes?: string;
  /** The rules the output was held to: learned from the template, then the user's. */
  rules: Rules;
}

export interface JudgeOptions {
  limits?: PackageLimits;
}

export async function readDocument(path: string, limits: PackageLimits = DEFAULT_LIMITS): Promise<DocumentModel> {
  const pkg = await openPackage(path, limits);
  try {
    if (pkg.kind === 'pptx') return await readDeck(pkg);
    if (pkg.kind === 'xlsx') return await readWorkbook(pkg);
    return await readDocx(pkg);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'bad_request',
      `${path} could not be read as ${aKind(pkg.kind)}: ${error instanceof Error ? error.message : String(error)}. It may be damaged; re-create it.`,
      { cause: error },
    );
  }
}

/**
 * Rules learned from a model: everything the reference shows about structure, formatting and content. A reference
 * is by definition acceptable, so whatever the checks still find in it under those rules (a placeholder it leaves
 * empty, a cell showing #N/A, a slide styled unlike its siblings) is listed as accepted: the same finding at the same
 * place in an output is not a defect, and the rules never flag the reference they came from.
 */
export function learnFromModel(model: DocumentModel): Rules {
  const learned: Rules =
    model.kind === 'pptx'
      ? { kind: 'pptx', pptx: learnPptx(model) }
      : model.kind === 'xlsx'
        ? { kind: 'xlsx', xlsx: learnXlsx(model) }
        : { kind: 'docx', docx: learnDocx(model) };
  const own = runChecks(model, learned).findings.raw;
  const seen = new Set<string>();
  const accepted = own.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return accepted.length > 0 ? { ...learned, accepted } : learned;
}

export async function learnRules(path: string, options: JudgeOptions = {}): Promise<Rules> {
  return learnFromModel(await readDocument(path, options.limits));
}

export function summarize(kind: DocumentKind, counts: Record<Severity, number>, hollow: boolean): string {
  const total = counts.critical + counts.high + counts.medium;
  const parts = `${counts.critical} critical, ${counts.high} high, ${counts.medium} medium`;
  if (hollow)
    return `HOLLOW: the ${KIND_LABEL[kind]} is mostly empty (${parts}); fix the data source before iterating on details`;
  if (counts.critical + counts.high === 0)
    return total === 0 ? 'PASS: matches the template' : `PASS: no critical or high findings (${counts.medium} medium)`;
  return `FAIL: ${parts}`;
}

function runChecks(model: DocumentModel, rules: Rules): { findings: FindingList } {
  const slideMap = model.kind === 'pptx' && rules.pptx?.shapes ? alignSlides(model, rules.pptx.shapes) : undefined;
  const findings = new FindingList(rules.severity, rules.accepted, slideMap);
  const scanner = contentScanner(rules);
  if (model.kind === 'pptx') {
    checkPptxStructure(model, rules, findings);
    checkPptxFormat(model, rules, findings);
    checkPptxContent(model, rules, scanner, findings);
    checkPptxShapes(model, rules, findings);
  } else if (model.kind === 'xlsx') checkXlsx(model, rules, scanner, findings);
  else checkDocx(model, rules, scanner, findings);
  return { findings };
}

/** Checks a model against rules; the pure core that `judgeDocument` wraps (tests call it with models they build). */
export function judgeModel(
  model: DocumentModel,
  rules: Rules,
): Pick<Judgement, 'findings' | 'counts' | 'hollow' | 'passed' | 'summary'> {
  const { findings } = runChecks(model, rules);
  const sorted = sortFindings(findings.items);
  // Hollow only when the finding that says so survived: a reference that is itself mostly empty has accepted it.
  const hollow = sorted.some((finding) => finding.rule === 'content.hollow');
  const counts = countBySeverity(sorted);
  return {
    findings: sorted,
    counts,
    hollow,
    passed: counts.critical + counts.high === 0,
    summary: summarize(model.kind, counts, hollow),
  };
}

export async function judgeDocument(
  outputPath: string,
  templatePath: string | undefined,
  userRules: Rules = {},
  options: JudgeOptions = {},
): Promise<Judgement> {
  return judgeReadDocument(
    await readDocument(outputPath, options.limits ?? DEFAULT_LIMITS),
    templatePath,
    userRules,
    options,
  );
}

/** `judgeDocument` for an output already read (a caller that treats an unreadable output differently from a bad template). */
export async function judgeReadDocument(
  output: DocumentModel,
  templatePath: string | undefined,
  userRules: Rules = {},
  options: JudgeOptions = {},
): Promise<Judgement> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const outputPath = output.path;
  let learned: Rules = { kind: output.kind };
  if (templatePath !== undefined) {
    const template = await readDocument(templatePath, limits);
    if (template.kind !== output.kind) {
      throw new AppError(
        'bad_request',
        `The output ${outputPath} is ${aKind(output.kind)} but the template ${templatePath} is ${aKind(template.kind)}: compare documents of the same kind.`,
      );
    }
    learned = learnFromModel(template);
  }
  if (userRules.kind !== undefined && userRules.kind !== output.kind) {
    throw new AppError(
      'bad_config',
      `The rules are for ${aKind(userRules.kind)}, but ${outputPath} is ${aKind(output.kind)}: use rules made for this kind of document.`,
    );
  }
  const rules = mergeRules(learned, userRules);
  return {
    kind: output.kind,
    output: outputPath,
    ...(templatePath === undefined ? {} : { template: templatePath }),
    ...judgeModel(output, rules),
    ...(rules.notes ? { notes: rules.notes } : {}),
    rules,
  };
}

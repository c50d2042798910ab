import { AppError } from '../../shared/errors';
import { compareValues } from './compare-values';
import { countBySeverity, sortFindings, type Finding } from './finding';
import { FindingList } from './finding-list';
import { judgeModel, learnFromModel, readDocument, summarize, type Judgement, type JudgeOptions } from './judge-document';
import { aKind, DEFAULT_LIMITS } from './open-package';
import { mergeRules, type Rules } from './rules';

/** Rules whose finding covers a whole place (a missing sheet, column, section, shape or an emptied one): values there are not repeated. */
const COVERS_PLACE = /^(structure\.|content\.empty$|content\.hollow$)/;

/** Whether a value finding sits inside a place that a structure finding already reports. */
function covered(value: Finding, by: readonly Finding[]): boolean {
  const at = value.location;
  return by.some((finding) => {
    if (!COVERS_PLACE.test(finding.rule)) return false;
    const place = finding.location;
    if (place.slide !== undefined) return place.slide === at.slide && (place.shape === undefined || place.shape === at.shape);
    if (place.sheet !== undefined)
      return place.sheet === at.sheet && place.column !== undefined && place.column === at.column;
    if (place.section !== undefined) return place.section === at.section && place.paragraph === undefined;
    return false;
  });
}

/**
 * `deputy compare --reference`: the output judged against an expected output. The reference serves as the template
 * (structure, formatting and content rules learned from it, the user's rules on top), and every value is compared
 * too: a changed number or text is reported with its cell, slide shape and paragraph, or section paragraph.
 */
export async function judgeAgainstReference(
  outputPath: string,
  referencePath: string,
  userRules: Rules = {},
  options: JudgeOptions = {},
): Promise<Judgement> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const output = await readDocument(outputPath, limits);
  const reference = await readDocument(referencePath, limits);
  if (reference.kind !== output.kind)
    throw new AppError(
      'bad_request',
      `The output ${outputPath} is ${aKind(output.kind)} but the reference ${referencePath} is ${aKind(reference.kind)}: compare documents of the same kind.`,
    );
  if (userRules.kind !== undefined && userRules.kind !== output.kind)
    throw new AppError(
      'bad_config',
      `The rules are for ${aKind(userRules.kind)}, but ${outputPath} is ${aKind(output.kind)}: use rules made for this kind of document.`,
    );
  const rules = mergeRules(learnFromModel(reference), userRules);
  const base = judgeModel(output, rules);
  const values = new FindingList(rules.severity);
  compareValues(reference, output, values);
  const findings = sortFindings([...base.findings, ...values.items.filter((finding) => !covered(finding, base.findings))]);
  const counts = countBySeverity(findings);
  return {
    kind: output.kind,
    output: outputPath,
    template: referencePath,
    findings,
    counts,
    hollow: base.hollow,
    passed: counts.critical + counts.high === 0,
    summary: summarize(output.kind, counts, base.hollow),
    ...(rules.notes ? { notes: rules.notes } : {}),
    rules,
  };
}

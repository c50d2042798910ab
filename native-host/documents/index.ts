/**
 * Output documents judged against a reference template: what the fix loop and `deputy compare` use. See
 * judge-document.ts for the contract (`judgeDocument`, `learnRules`) and format-findings.ts for the fixer prompt.
 */
export {
  judgeDocument,
  judgeModel,
  judgeReadDocument,
  learnRules,
  readDocument,
  type Judgement,
  type JudgeOptions,
} from './judge-document';
export { documentText } from './document-text';
export { DEFAULT_LIMITS, type PackageLimits } from './open-package';
export { formatForFixer, formatReport } from './format-findings';
export { writeReport, type ReportFiles } from './html-report';
export { findRenderTools } from './render-pages';
export { loadRules, parseRules, Rules } from './rules';
export { countBySeverity, Finding, Severity } from './finding';

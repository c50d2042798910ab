import type { FailureItem, LoopConfig } from '../../shared/protocol/loop-protocol';
import { CANNOT_FIX_FILE } from './diff-validator';
import type { IterationRecord } from './loop-state';
import { serviceRedactor, serviceText, UNTRUSTED_TEXT } from './service-text';
import { shellWord } from './shell-quote';

export interface PromptInput {
  failures: FailureItem[];
  history: IterationRecord[];
  guidance?: string;
  guidanceFile: string;
  protectedPaths: string[];
  allowedPaths: string[];
  /** The same failures came back after a fix: ask for the root cause and a different approach. */
  changeApproach: boolean;
  /** The check as the fixer may run it (allowed without asking), and the build when there is one. */
  checkCommand?: string;
  buildCommand?: string;
  /** The findings as the check formatted them (an output document's, by severity with the template's notes). */
  findingsText?: string;
  /** Document mode: the template the output is judged by, and the commands that make and judge an output. */
  document?: { template?: string; rules?: string; triggerCommand?: string; compareCommand?: string };
  /** A root-cause analysis the research step wrote after the same failures came back. */
  research?: string;
  logs?: string;
  /** This run continues a session that was cut short, whose edits were dropped. */
  resumed?: boolean;
}

export const CHANGE_APPROACH_TEXT = 'The same failures came back after the last fix: find the root cause and try a different approach.';
export const RESUMED_TEXT =
  'Your previous run was interrupted before it finished, and the edits it had made were discarded: the working tree is back where it started. Continue from what you learned and make the fix again.';

/** The check command the fixer runs: the output file in place of {output}, and DEPUTY_OUTPUT set as the loop sets it. */
export function fixerCheckCommand(config: Pick<LoopConfig, 'check' | 'output' | 'outputFile'>, outputFile: string | undefined): string | undefined {
  if (!config.check) return undefined;
  const file = outputFile ?? config.outputFile;
  const command = config.check.command.replaceAll('{output}', file ?? '').replaceAll('{junit}', '/dev/null');
  return file && (config.output || config.outputFile) ? `DEPUTY_OUTPUT=${file} ${command}` : command;
}

const SECTIONS: Array<[FailureItem['severity'], string]> = [
  ['error', 'Errors (tests that could not run)'],
  ['failure', 'Failures'],
  ['warning', 'Other output from the check'],
];
const DOCUMENT_SECTIONS: Array<[FailureItem['severity'], string]> = [
  ['critical', 'Critical findings in the output document'],
  ['high', 'High findings in the output document'],
  ['medium', 'Medium findings in the output document'],
];

function formatFailure(item: FailureItem): string {
  const where = item.file ? ` (${item.file})` : '';
  const message = item.message.includes('\n') ? `\n  ${item.message.split('\n').join('\n  ')}` : ` - ${item.message}`;
  return `- ${item.id}${where}${message}`;
}

function sections(failures: FailureItem[], list: Array<[FailureItem['severity'], string]>): string[] {
  return list.flatMap(([severity, title]) => {
    const items = failures.filter((item) => item.severity === severity);
    return items.length > 0 ? [`## ${title}\n${items.map(formatFailure).join('\n')}`] : [];
  });
}

/** The failures as the fixer reads them: the check's own formatting where it has one, else grouped by severity. */
export function failuresText(failures: FailureItem[], findingsText: string | undefined): string {
  return [...sections(failures, SECTIONS), ...(findingsText ? [findingsText] : sections(failures, DOCUMENT_SECTIONS))].join('\n\n');
}

/** The prompt for one fixer run: what fails now, what was tried, the service's own guidance, and the mandate. */
export function buildFixerPrompt(input: PromptInput): string {
  const redactor = serviceRedactor();
  const opening = input.document
    ? "The output document this service produces does not match its reference template. Fix the service's code so that its next output does."
    : 'The check of this repository fails. Fix the code so that it passes.';
  const parts: string[] = [opening];
  if (input.resumed) parts.push(`NOTE: ${RESUMED_TEXT}`);
  if (input.changeApproach) parts.push(`IMPORTANT: ${CHANGE_APPROACH_TEXT}`);
  const failing = failuresText(input.failures, input.findingsText);
  if (failing) parts.push(serviceText(redactor, 'the check', failing));
  const earlier = input.history.filter((record) => record.fixer || record.rejected || record.noChange);
  if (earlier.length > 0) {
    const lines = earlier.map((record) => {
      const outcome = record.rejected
        ? `REJECTED and rolled back: ${record.rejected.join('; ')}`
        : record.fixer?.refused && !record.commit
          ? `its commands were REFUSED by the permission mode (${record.fixer.refused}); do not retry them, use the Edit tool or allowed commands`
          : record.noChange
            ? 'made no change'
          : record.commit
            ? `committed ${record.commit.slice(0, 10)}`
            : 'not applied';
      const failing = record.failures.map((item) => item.id).slice(0, 8).join(', ');
      const verdict = record.document ? `${record.document.summary}; ` : '';
      return `- Iteration ${record.iteration}: ${verdict}failing [${failing}]; fix: "${record.fixer?.summary ?? ''}"; ${outcome}`;
    });
    // Test names and the fixer's own summaries came from the service and a model that read it: redacted like the rest.
    parts.push(`## Earlier iterations\n${redactor.redact(lines.join('\n'))}`);
  }
  if (input.research) {
    parts.push(`## Root-cause analysis (research step)\nA model read the findings, the recent diffs and the output after the same failures came back. Check its reasoning against the code before you act on it.\n\n${serviceText(redactor, 'research step', input.research)}`);
  }
  if (input.logs) parts.push(`## Service logs after the last deploy\n${serviceText(redactor, 'service logs', input.logs)}`);
  // The repository's guidance is the owner's instructions, not service output, but a key pasted into it is still a key.
  if (input.guidance) parts.push(`## The service's guidance (${input.guidanceFile})\n${redactor.redact(input.guidance)}`);
  const scope = input.allowedPaths.length > 0 ? `Change only files under: ${input.allowedPaths.join(', ')}.` : 'Change only the code needed for the fix.';
  parts.push(
    [
      '## Rules',
      `- ${UNTRUSTED_TEXT}`,
      '- What your tools return (command output, files) passes the same redaction: secrets show as {{…}} placeholders while the files keep the real values. Tools whose results cannot be redacted (WebFetch, images, PDFs) are refused with what to use instead.',
      `- ${scope}`,
      `- Never touch protected paths: ${input.protectedPaths.join(', ')}.`,
      ...runnable(input),
      '- Never edit, delete, skip or weaken tests, and never change test configuration or the scripts that run the check: such a change is rejected. Fix the code under test.',
      '- Never invent data to fill a gap: no example URLs, no "(estimated)" figures, no fallback content, no hard-coded series.',
      '- Do not commit, push, reset or rewrite git history; Deputy commits and pushes your change after checking it.',
      `- If the problem cannot be fixed without a human (missing data, credentials, a product decision), write ${CANNOT_FIX_FILE} at the repository root explaining why, and change nothing else.`,
      '- End with one line that summarises the fix.',
    ].join('\n'),
  );
  return parts.join('\n\n');
}

/** What the fixer may run to see whether its fix works: the check, the build, and in document mode the job and the comparison. */
function runnable(input: PromptInput): string[] {
  const lines: string[] = [];
  const build = input.buildCommand ? ` (and the build: \`${input.buildCommand}\`)` : '';
  if (input.checkCommand) lines.push(`- You may run the check to see whether your fix works: \`${input.checkCommand}\`${build}.`);
  else if (input.buildCommand) lines.push(`- You may run the build: \`${input.buildCommand}\`.`);
  const document = input.document;
  if (document?.triggerCommand) lines.push(`- You may run the job to make a new output document: \`${document.triggerCommand}\`.`);
  if (document?.compareCommand && (document.template || document.rules)) {
    const against = [document.template ? `--template ${shellWord(document.template)}` : '', document.rules ? `--rules ${shellWord(document.rules)}` : ''].filter(Boolean).join(' ');
    lines.push(`- You may compare an output document with the template the loop judges it by: \`${document.compareCommand} OUTPUT_FILE ${against}\`.`);
  }
  if (document) lines.push('- Never edit the template or its rules: Deputy judges the next output against them as they are.');
  lines.push('- Other commands may need approval that nobody can give in this run.');
  return lines;
}

import type { FailureItem, LoopConfig } from '../../shared/protocol/loop-protocol';
import { CANNOT_FIX_FILE } from './diff-validator';
import type { IterationRecord } from './loop-state';

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
  checkCommand: string;
  buildCommand?: string;
  logs?: string;
  /** This run continues a session that was cut short, whose edits were dropped. */
  resumed?: boolean;
}

export const CHANGE_APPROACH_TEXT = 'The same failures came back after the last fix: find the root cause and try a different approach.';
export const RESUMED_TEXT =
  'Your previous run was interrupted before it finished, and the edits it had made were discarded: the working tree is back where it started. Continue from what you learned and make the fix again.';

/** The check command the fixer runs: the output file in place of {output}, and DEPUTY_OUTPUT set as the loop sets it. */
export function fixerCheckCommand(config: Pick<LoopConfig, 'check' | 'output' | 'outputFile'>, outputFile: string | undefined): string {
  const file = outputFile ?? config.outputFile;
  const command = config.check.command.replaceAll('{output}', file ?? '').replaceAll('{junit}', '/dev/null');
  return file && (config.output || config.outputFile) ? `DEPUTY_OUTPUT=${file} ${command}` : command;
}

const SECTIONS: Array<[FailureItem['severity'], string]> = [
  ['error', 'Errors (tests that could not run)'],
  ['failure', 'Failures'],
  ['warning', 'Other output from the check'],
];

function formatFailure(item: FailureItem): string {
  const where = item.file ? ` (${item.file})` : '';
  const message = item.message.includes('\n') ? `\n  ${item.message.split('\n').join('\n  ')}` : ` - ${item.message}`;
  return `- ${item.id}${where}${message}`;
}

/** The prompt for one fixer run: what fails now, what was tried, the service's own guidance, and the mandate. */
export function buildFixerPrompt(input: PromptInput): string {
  const parts: string[] = ['The check of this repository fails. Fix the code so that it passes.'];
  if (input.resumed) parts.push(`NOTE: ${RESUMED_TEXT}`);
  if (input.changeApproach) parts.push(`IMPORTANT: ${CHANGE_APPROACH_TEXT}`);
  for (const [severity, title] of SECTIONS) {
    const items = input.failures.filter((item) => item.severity === severity);
    if (items.length > 0) parts.push(`## ${title}\n${items.map(formatFailure).join('\n')}`);
  }
  const earlier = input.history.filter((record) => record.fixer || record.rejected || record.noChange);
  if (earlier.length > 0) {
    const lines = earlier.map((record) => {
      const outcome = record.rejected
        ? `REJECTED and rolled back: ${record.rejected.join('; ')}`
        : record.noChange
          ? 'made no change'
          : record.commit
            ? `committed ${record.commit.slice(0, 10)}`
            : 'not applied';
      const failing = record.failures.map((item) => item.id).slice(0, 8).join(', ');
      return `- Iteration ${record.iteration}: failing [${failing}]; fix: "${record.fixer?.summary ?? ''}"; ${outcome}`;
    });
    parts.push(`## Earlier iterations\n${lines.join('\n')}`);
  }
  if (input.logs) parts.push(`## Service logs after the last deploy\n${input.logs}`);
  if (input.guidance) parts.push(`## The service's guidance (${input.guidanceFile})\n${input.guidance}`);
  const scope = input.allowedPaths.length > 0 ? `Change only files under: ${input.allowedPaths.join(', ')}.` : 'Change only the code needed for the fix.';
  parts.push(
    [
      '## Rules',
      `- ${scope}`,
      `- Never touch protected paths: ${input.protectedPaths.join(', ')}.`,
      `- You may run the check to see whether your fix works: \`${input.checkCommand}\`${input.buildCommand ? ` (and the build: \`${input.buildCommand}\`)` : ''}. Other commands may need approval that nobody can give in this run.`,
      '- Never edit, delete, skip or weaken tests, and never change test configuration or the scripts that run the check: such a change is rejected. Fix the code under test.',
      '- Never invent data to fill a gap: no example URLs, no "(estimated)" figures, no fallback content, no hard-coded series.',
      '- Do not commit, push, reset or rewrite git history; Deputy commits and pushes your change after checking it.',
      `- If the problem cannot be fixed without a human (missing data, credentials, a product decision), write ${CANNOT_FIX_FILE} at the repository root explaining why, and change nothing else.`,
      '- End with one line that summarises the fix.',
    ].join('\n'),
  );
  return parts.join('\n\n');
}

import { formatSize } from '../../shared/mail-text';
import type { LoopState } from './loop-state';
import { writeFileAtomic } from '../atomic-file';

const money = (usd: number): string => `$${usd.toFixed(2)}`;

/** The report a person reads after the loop: the outcome first, then what each iteration found, tried and cost. */
export function renderReport(state: LoopState): string {
  const lines = [
    `# Fix loop report: ${state.repo}`,
    '',
    `- Outcome: **${state.outcome ?? 'running'}**${state.reason ? ` - ${state.reason}` : ''}`,
    `- Branch: ${state.branch} (remote ${state.config.remote})`,
    ...(state.config.check ? [`- Check: \`${state.config.check.command}\``] : []),
    ...(state.config.document ? [`- Output document judged against ${[state.config.document.template, state.config.document.rules].filter(Boolean).join(' with the rules ')}`] : []),
    `- Iterations: ${state.history.length}; pushed commits: ${state.pushedCommits.length}; cost: ${money(state.costUsd)}; active time: ${Math.round(state.activeMs / 1000)} s`,
    `- Loop id: ${state.loopId}`,
    '',
  ];
  for (const record of state.history) {
    lines.push(`## Iteration ${record.iteration}`, '');
    if (record.trigger) lines.push(`Trigger: ${record.trigger}`);
    if (record.received) {
      const { name, size, from, subject } = record.received;
      lines.push(`Output received: ${name} (${formatSize(size)})${subject !== undefined ? ` in the mail "${subject}"${from ? ` from ${from}` : ''}` : ''}`);
    }
    if (record.trigger || record.received) lines.push('');
    if (record.document) {
      const { counts } = record.document;
      lines.push(`Output: ${record.document.output}`, `Judgement: ${record.document.summary} (${counts.critical} critical, ${counts.high} high, ${counts.medium} medium)`);
      if (record.document.reportPath) lines.push(`Report: ${record.document.reportPath}`);
      lines.push('');
    }
    if (record.passed === true) lines.push('The check passed.');
    else if (record.passed === false) {
      lines.push(`Check failed (${record.format ?? 'text'}), ${record.failures.length} failure(s):`);
      for (const item of record.failures.slice(0, 10)) lines.push(`- [${item.severity}] ${item.id}: ${item.message.split('\n')[0]?.slice(0, 200) ?? ''}`);
      if (record.failures.length > 10) lines.push(`- ... and ${record.failures.length - 10} more`);
    } else lines.push('The check did not run in this iteration.');
    if (record.escalation) lines.push('', 'Root-cause analysis (research step), given to the next fixer run:', '', ...record.escalation.split('\n').map((line) => `> ${line}`));
    if (record.fixer) {
      lines.push('', `Fix: ${record.fixer.summary} (cost ${money(record.fixer.costUsd)}${record.fixer.turns !== undefined ? `, ${record.fixer.turns} turns` : ''}${record.fixer.sessionId ? `, session ${record.fixer.sessionId}` : ''})`);
    }
    if (record.interruptedRuns > 0) lines.push(`Fixer runs cut short and discarded: ${record.interruptedRuns}`);
    if (record.fixer?.refused) lines.push(`Refused by the coding CLI: ${record.fixer.refused}`);
    if (record.noChange) lines.push('The fixer changed nothing.');
    if (record.rejected) lines.push('Rejected and rolled back:', ...record.rejected.map((reason) => `- ${reason}`));
    if (record.cannotFix) lines.push('The fixer asked for a human (CANNOT_FIX.md):', '', ...record.cannotFix.split('\n').map((line) => `> ${line}`));
    if (record.filesChanged !== undefined) lines.push(`Diff: ${record.filesChanged} file(s), +${record.insertions ?? 0} -${record.deletions ?? 0}`);
    if (record.commit) lines.push(`Commit: ${record.commit}${record.pushed ? ' (pushed' + (record.rebased ? ' after a rebase)' : ')') : ' (not pushed)'}`);
    if (record.deployMs !== undefined) lines.push(`Deploy ready after ${Math.round(record.deployMs / 1000)} s`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

export function writeReport(file: string, state: LoopState): void {
  writeFileAtomic(file, renderReport(state));
}

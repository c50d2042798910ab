import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { definitionChange, loopCheckDefinition } from './check-definition';
import { CANNOT_FIX_FILE, testChangeReasons, validateDiff } from './diff-validator';
import type { DiffSummary } from './git-ops';
import { isTestFile } from './guard-rules';
import { currentRecord } from './loop-state';
import type { LoopContext, StepHandler } from './loop-context';
import { afterPush, guardRules, keptOut, nextIteration, trailer } from './step-support';
import { withRetries } from './with-retries';

/** Judges the fixer's change from Deputy's own diff; a rejected change is rolled back to the iteration's start. */
export const validateStep: StepHandler = async (context) => {
  const { state, git } = context;
  const record = currentRecord(state);
  const diff = await git.diffFrom(record.startCommit, keptOut(state));
  const verdict = validateDiff(diff, guardRules(state));
  const definitionReasons = await checkDefinitionChanges(context, diff);
  if (verdict.cannotFix) {
    const text = readFileSync(join(state.repo, CANNOT_FIX_FILE), 'utf8').trim();
    record.cannotFix = text.slice(0, 4000);
    await git.rollbackTo(record.startCommit);
    context.finish('needs_human', `Needs a human: the fixer wrote ${CANNOT_FIX_FILE}: ${text.split('\n').find((line) => line.trim().length > 0)?.slice(0, 300) ?? ''}`);
    return 'needs a human';
  }
  if (verdict.empty) {
    // A run that was refused its commands did not choose to change nothing: it says what was refused and what to allow.
    if (record.fixer?.refused) {
      nextIteration(context);
      return `refused: ${record.fixer.refused}`;
    }
    record.noChange = true;
    nextIteration(context);
    return 'no change';
  }
  const reasons = [...verdict.reasons, ...(state.config.allowTestEdits ? [] : definitionReasons)];
  if (reasons.length > 0) {
    await git.rollbackTo(record.startCommit);
    record.rejected = reasons;
    context.emit({ type: 'fix.rejected', reasons });
    nextIteration(context);
    return `rejected: ${reasons.join('; ')}`;
  }
  // The user allowed test edits: such a fix is committed, but pushed only once they approve it.
  if (definitionReasons.length > 0) record.needsApproval = definitionReasons;
  record.filesChanged = diff.files.length;
  record.insertions = diff.insertions;
  record.deletions = diff.deletions;
  state.step = 'commit';
  return `${diff.files.length} file(s), +${diff.insertions} -${diff.deletions}`;
};

/** Why each changed file may not be part of a fix because it is a test or defines the check, compared with the start. */
async function checkDefinitionChanges(context: LoopContext, diff: DiffSummary): Promise<string[]> {
  const { state, git } = context;
  const record = currentRecord(state);
  const definition = loopCheckDefinition(state);
  const reasons: string[] = [];
  for (const file of diff.files) {
    if (file.path === CANNOT_FIX_FILE) continue;
    const before = await git.showFile(record.startCommit, file.path);
    const absolute = join(state.repo, file.path);
    const after = existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
    if (isTestFile(file.path)) reasons.push(...testChangeReasons(diff, file.path));
    else {
      const reason = definitionChange(file.path, definition.files, before, after);
      if (reason) reasons.push(reason);
    }
  }
  return reasons;
}

/** Commits the change once: a commit already carrying this iteration's trailer is recognised, not repeated. */
export const commitStep: StepHandler = async (context) => {
  const { state, git } = context;
  const record = currentRecord(state);
  const head = await git.head();
  if (head !== record.startCommit && (await git.commitMessage(head)).includes(trailer(state))) {
    record.commit = head;
  } else {
    // The mandate forbids it, but a fixer may still have committed: fold its commits into Deputy's one commit.
    if (head !== record.startCommit) await git.softResetTo(record.startCommit);
    const summary = (record.fixer?.summary ?? 'make the check pass').replace(/\s+/g, ' ').trim().slice(0, 72);
    record.commit = await git.commitAll(`Fix: ${summary}\n\n${trailer(state)}\n`, keptOut(state));
  }
  state.step = 'push';
  context.save();
  context.emit({ type: 'commit.created', commit: record.commit, summary: record.fixer?.summary ?? '' });
  return record.commit;
};

/** Pushes without force (one rebase when the remote moved) and checks that the remote now points at the commit. */
export const pushStep: StepHandler = async (context) => {
  const { state, git, deps } = context;
  const record = currentRecord(state);
  const { remote } = state.config;
  let head = await git.head();
  if (!(await git.commitMessage(head)).includes(trailer(state))) {
    throw new AppError('internal', `The branch moved since Deputy committed (HEAD is ${head.slice(0, 10)}, not the loop's commit); inspect the repository, then run --resume`);
  }
  if (record.needsApproval && !record.approved) {
    context.finish(
      'needs_human',
      `Needs your approval: the fix ${head.slice(0, 10)} changes tests or what defines the check (${record.needsApproval.join('; ')}). Review it with git show ${head.slice(0, 10)}; run deputy loop --resume --approve to push it, or deputy loop --restart to drop the loop (then git reset --hard ${record.startCommit.slice(0, 10)})`,
    );
    return 'waiting for approval';
  }
  let rebased = false;
  if ((await git.remoteHead(remote, state.branch)) !== head) {
    const outcome = await withRetries(state.config.retries, deps, async () => {
      const attempt = await git.push(remote, state.branch);
      if (!attempt.ok && attempt.retryable) {
        throw new AppError('unavailable', `git push to ${remote}/${state.branch} failed: ${attempt.reason}. Check your access to the remote, then run deputy loop --resume`);
      }
      return attempt;
    });
    if (!outcome.ok) throw new AppError('bad_request', `git push to ${remote}/${state.branch} failed: ${outcome.reason}, then run deputy loop --resume`);
    rebased = outcome.rebased;
    head = await git.head();
  }
  const remoteHead = await git.remoteHead(remote, state.branch);
  if (remoteHead !== head) {
    throw new AppError('unavailable', `After the push ${remote}/${state.branch} points at ${remoteHead ?? 'nothing'}, not at ${head}; check the remote, then run --resume`);
  }
  record.commit = head;
  record.pushed = true;
  record.rebased = rebased;
  if (!state.pushedCommits.includes(head)) state.pushedCommits.push(head);
  const iteration = state.iteration;
  const next = afterPush(state);
  if (next) state.step = next;
  else nextIteration(context);
  context.save();
  context.emit({ type: 'push.verified', commit: head, rebased }, iteration);
  return head;
};


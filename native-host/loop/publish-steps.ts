import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { CANNOT_FIX_FILE, validateDiff } from './diff-validator';
import { currentRecord } from './loop-state';
import { afterPush, guardRules, nextIteration, trailer, type StepHandler } from './step-support';
import { withRetries } from './with-retries';

/** Judges the fixer's change from Deputy's own diff; a rejected change is rolled back to the iteration's start. */
export const validateStep: StepHandler = async (context) => {
  const { state, git } = context;
  const record = currentRecord(state);
  const diff = await git.diffFrom(record.startCommit);
  const verdict = validateDiff(diff, guardRules(state));
  if (verdict.cannotFix) {
    const text = readFileSync(join(state.repo, CANNOT_FIX_FILE), 'utf8').trim();
    record.cannotFix = text.slice(0, 4000);
    await git.rollbackTo(record.startCommit);
    context.finish('needs_human', `Needs a human: the fixer wrote ${CANNOT_FIX_FILE}: ${text.split('\n').find((line) => line.trim().length > 0)?.slice(0, 300) ?? ''}`);
    return 'needs a human';
  }
  if (verdict.empty) {
    record.noChange = true;
    nextIteration(context);
    return 'no change';
  }
  if (!verdict.ok) {
    await git.rollbackTo(record.startCommit);
    record.rejected = verdict.reasons;
    context.emit({ type: 'fix.rejected', reasons: verdict.reasons });
    nextIteration(context);
    return `rejected: ${verdict.reasons.join('; ')}`;
  }
  record.filesChanged = diff.files.length;
  record.insertions = diff.insertions;
  record.deletions = diff.deletions;
  state.step = 'commit';
  return `${diff.files.length} file(s), +${diff.insertions} -${diff.deletions}`;
};

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
    record.commit = await git.commitAll(`Fix: ${summary}\n\n${trailer(state)}\n`);
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


import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AppError } from '../../shared/errors';
import { markMailbox } from '../mail/wait-for-mail';
import type { LoopContext, StepHandler } from './loop-context';
import { currentRecord } from './loop-state';
import { receiveMailOutput, startHeartbeat } from './output-mail';
import { externalDeps } from './step-support';
import { mayRetryTrigger, TriggerError } from './trigger-error';
import { outputFolder, outputSnapshot, runTrigger, triggerRepeatable, waitForOutput, type FileOutputSpec } from './trigger-output';
import { withAttempts, withRetries } from './with-retries';

/**
 * The job's two steps: the trigger starts it (a command, an HTTP request, a web form), the output step waits for what
 * it produces (a file in a folder, a URL, a mail with an attachment). Both say what they did as events, so every view
 * shows what was sent, how long the loop has waited and what arrived.
 */

/** Why a failed trigger was not sent again, added to its error so the user knows what to change. */
function notRetried(error: unknown, repeatable: boolean): unknown {
  if (!(error instanceof TriggerError) || !error.sent || repeatable) return error;
  return new TriggerError(
    error.code,
    `${error.message}. It was not sent again: it reached the service, which may have started the job. If sending it twice is harmless, mark the trigger safe to repeat ("idempotent": true, or --trigger-retry)`,
    true,
    error.final,
  );
}

export const triggerStep: StepHandler = async (context) => {
  const { state, deps, git } = context;
  const spec = state.config.trigger;
  const output = state.config.output;
  const record = currentRecord(state);
  const resent = record.triggerSending === true;
  if (!resent) {
    record.treeBefore = await git.changedPaths();
    // What exists before the job runs is not its output: the mailbox's mark, the folder's files.
    if (output && 'mail' in output) state.mailMark = await markMailbox(output.mail, { createSource: deps.mailSource });
    else if (output) state.outputBaseline = outputSnapshot(output, state.repo);
  }
  let detail = 'no trigger';
  if (spec) {
    const repeatable = triggerRepeatable(spec);
    if (resent && !repeatable) {
      // The last run stopped while sending it: the service may have it, and a second job must not start.
      context.emit({ type: 'notice', level: 'warn', message: 'The loop stopped while the trigger was being sent, so it may have reached the service; it is not sent again (it is not marked safe to repeat). Waiting for its output' });
      state.step = output ? 'output' : 'check';
      return 'not sent again';
    }
    record.triggerSending = true;
    context.save();
    let sent;
    try {
      sent = await withAttempts(state.config.retries, deps, () => runTrigger(spec, state.repo, externalDeps(context)), {
        retryable: (error) => mayRetryTrigger(error, repeatable),
        onRetry: (error, attempt, pauseMs) =>
          context.emit({ type: 'notice', level: 'warn', message: `The trigger failed (attempt ${attempt}): ${error instanceof Error ? error.message : String(error)}; trying again in ${Math.round(pauseMs / 1000)} s` }),
      });
    } catch (error) {
      // The failure is known and said: a resume after it sends the trigger again, as the user asks for then. Only a
      // crash while sending leaves the mark that keeps a resume from sending twice.
      delete record.triggerSending;
      throw notRetried(error, repeatable);
    }
    const { result, attempts } = sent;
    record.trigger = `${result.target}: ${result.result}`;
    context.emit({ type: 'trigger.sent', kind: result.kind, target: result.target, result: result.result, attempts });
    detail = result.result;
  } else context.save();
  delete record.triggerSending;
  state.step = output ? 'output' : 'check';
  return detail;
};

/** Waits for a new file in the output folder, or downloads the output from its URL, saying how long it waits. */
async function receiveFileOutput(context: LoopContext, spec: FileOutputSpec): Promise<string> {
  const { state, deps } = context;
  const where = 'url' in spec ? spec.url : join(outputFolder(spec, state.repo), spec.pattern);
  const source = 'url' in spec ? 'url' : 'folder';
  const started = deps.now();
  const stop = startHeartbeat(context, { source, where, timeoutSeconds: spec.timeoutSeconds });
  let file: string;
  try {
    const saveTo = join(deps.paths.dir, `output-${state.iteration}`);
    const baseline = state.outputBaseline;
    // A wait that timed out is not started again: that would make "nothing came" take three times as long.
    file = await withRetries(state.config.retries, deps, () => waitForOutput(spec, state.repo, baseline, saveTo, externalDeps(context)), {
      retryable: (error) => !(error instanceof AppError && error.code === 'timeout'),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'timeout' && !deps.signal.aborted) {
      context.emit({
        type: 'output.none',
        source,
        where,
        waitedSeconds: Math.round((deps.now() - started) / 1000),
        reason: `no new file matching ${where} appeared within ${spec.timeoutSeconds} s`,
        check: 'that the job ran and where it writes its output; then run deputy loop --resume to wait again',
      });
    }
    throw error;
  } finally {
    stop();
  }
  const received = { name: basename(file), size: statSync(file).size };
  currentRecord(state).received = received;
  context.emit({ type: 'output.received', source, file, ...received, waitedSeconds: Math.round((deps.now() - started) / 1000) });
  return file;
}

export const outputStep: StepHandler = async (context) => {
  const { state, deps, git } = context;
  const spec = state.config.output;
  const record = currentRecord(state);
  record.treeBefore ??= await git.changedPaths();
  if (spec && 'mail' in spec) {
    record.outputFile = await receiveMailOutput(context, spec.mail, deps.mailSource, state.iteration === 1 && state.config.startFrom === 'output');
    // Without a trigger the job mails on its own schedule: the next iteration waits for a mail after this one.
    if (!state.config.trigger) state.mailMark = await markMailbox(spec.mail, { createSource: deps.mailSource });
  } else if (spec) {
    record.outputFile = await receiveFileOutput(context, spec);
    // Without a trigger the job runs on its own schedule: the next iteration waits for a file newer than this one.
    state.outputBaseline = outputSnapshot(spec, state.repo);
  }
  state.step = 'check';
  return record.outputFile;
};

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskRecord } from '../../shared/protocol';
import type { EvalTaskResult } from './eval-report';
import { type EvalTaskRun, runEvalTask } from './run-eval-task';

/** What the replay's task record says about the routine run: its model calls, repairs and steps done. */
async function replayFigures(runDir: string | null): Promise<{ modelCalls: number; repairs: number; stepsDone: number } | null> {
  if (runDir === null) return null;
  const text = await readFile(join(runDir, 'task.json'), 'utf8').catch(() => null);
  const run = text === null ? undefined : (JSON.parse(text) as TaskRecord).routine;
  return run ? { modelCalls: run.modelCalls, repairs: run.repairs.length, stepsDone: run.done } : null;
}

/** The values the task was recorded with, as `--param`s: the replay does the same task, so it is judged the same way. */
async function recordedValues(path: string): Promise<Record<string, string>> {
  const file = JSON.parse(await readFile(path, 'utf8')) as { params?: { name: string; kind: string; example?: string }[] };
  return Object.fromEntries((file.params ?? []).flatMap((param) => (param.kind !== 'secret' && param.example !== undefined ? [[param.name, param.example]] : [])));
}

/**
 * `npm run eval -- --as-routines`: the task runs live with the model once and is saved as a routine file (the same
 * code as `npm run task -- --save-routine`), then that file is replayed in a fresh browser (as `--routine FILE`) and
 * judged by the suite's own check again. The live result is the task's result; the replay is reported beside it,
 * with the model calls it needed (0: replayed without the model; more: steps the model repaired).
 */
export async function runEvalTaskAsRoutine(run: EvalTaskRun): Promise<EvalTaskResult> {
  if (run.task.flow !== 'task') {
    const live = await runEvalTask(run);
    return { ...live, routine: { file: null, note: 'A support chat is a conversation, not steps on a page: it cannot be a routine.', replay: null } };
  }
  const routinesDir = join(run.runsDir, 'routine');
  const name = run.task.id.slice(run.task.id.indexOf('/') + 1);
  const live = await runEvalTask({ ...run, base: { ...run.base, saveRoutine: name, routinesDir } });
  const file = (await readdir(routinesDir).catch(() => [] as string[])).find((entry) => entry.endsWith('.routine.json'));
  if (file === undefined) {
    return { ...live, routine: { file: null, note: `Not saved as a routine: the live run ended ${live.status} (${live.reason}); its trace says why it could not be saved.`, replay: null } };
  }
  if (run.signal.aborted) return { ...live, routine: { file: join(routinesDir, file), note: 'Saved; the evaluation was interrupted before the replay.', replay: null } };
  const path = join(routinesDir, file);
  const replay = await runEvalTask({ ...run, base: { ...run.base, saveRoutine: undefined, routine: path, params: await recordedValues(path) }, runsDir: join(run.runsDir, 'replay') });
  const figures = await replayFigures(replay.runDir);
  const how = figures === null ? 'its task record was not written' : figures.modelCalls === 0 ? 'no model call' : `${figures.modelCalls} model call(s), ${figures.repairs} step(s) repaired`;
  return {
    ...live,
    routine: {
      file: path,
      note: `Replay ${replay.status}: ${how}.`,
      replay: {
        status: replay.status,
        reason: replay.reason,
        modelCalls: figures?.modelCalls ?? 0,
        repairs: figures?.repairs ?? 0,
        stepsDone: figures?.stepsDone ?? 0,
        inputTokens: replay.inputTokens,
        outputTokens: replay.outputTokens,
        costUsd: replay.costUsd,
        wallMs: replay.wallMs,
      },
    },
  };
}

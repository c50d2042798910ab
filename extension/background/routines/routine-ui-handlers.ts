import { AppError } from '../../../shared/errors';
import type { routineUiMethods, TaskRecord } from '../../../shared/protocol';
import { applyRepairs } from '../../../shared/routines/apply-repairs';
import { buildRoutine } from '../../../shared/routines/build-routine';
import type { RoutineRun, StoredRoutine } from '../../../shared/routines/routine';
import { exportRoutine, importRoutine } from '../../../shared/routines/routine-file';
import { checkParams, fillSteps, fillTask } from '../../../shared/routines/routine-params';
import type { UiHandlers } from '../ui/ui-server';
import type { RoutineStore } from './routine-store';

type RoutineHandlers = Pick<UiHandlers, Exclude<keyof typeof routineUiMethods, ScheduleMethod>>;
export type ScheduleMethod = 'routine.schedule' | 'routine.schedules' | 'routine.unschedule' | 'routine.runDue' | 'routine.notices';
/** Every routine method of the panel: these, and the schedules' (routine-scheduler). */
export type RoutineUiHandlers = Pick<UiHandlers, keyof typeof routineUiMethods>;

/** A replay as the task runner starts it: the routine's task in words, its filled steps and its secret values. */
export interface StartReplay {
  tabId: number;
  text: string;
  flow: 'task';
  url?: string;
  routine: RoutineRun;
  /** Values for the routine's secret placeholders: they go to the task's vault, never into its record. */
  secrets: Record<string, string>;
  /** The plain values, kept on the task so repaired steps can turn them back into parameters. */
  params: Record<string, string>;
  /** Started by a schedule: its id and the cost cap of one run. */
  schedule?: { id: string; costCapUsd: number };
}

export interface RoutineHandlerDeps {
  store: RoutineStore;
  task(taskId: string): Promise<TaskRecord | undefined>;
  start(input: StartReplay): Promise<TaskRecord>;
  now(): number;
  newId(): string;
}

function fileName(name: string): string {
  return `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'routine'
  }.routine.json`;
}

/** The panel's routine methods: save a finished task, list, export, import, run and take a replay's repairs. */
export function createRoutineUiHandlers(
  deps: RoutineHandlerDeps,
): RoutineHandlers & {
  start(
    id: string,
    tabId: number,
    params: Record<string, string>,
    schedule?: StartReplay['schedule'],
  ): Promise<TaskRecord>;
} {
  const need = async (id: string): Promise<StoredRoutine> => {
    const saved = await deps.store.get(id);
    if (!saved) throw new AppError('not_found', 'That routine is gone (it was deleted): save or import it again.');
    return saved;
  };
  const start = async (
    id: string,
    tabId: number,
    params: Record<string, string>,
    schedule?: StartReplay['schedule'],
  ): Promise<TaskRecord> => {
    const saved = await need(id);
    const filled = checkParams(saved.routine, params);
    const routine = saved.routine;
    return deps.start({
      tabId,
      text: `Routine "${routine.name}": ${fillTask(routine, filled.values)}`,
      flow: 'task',
      ...(/^https?:/i.test(routine.startUrl) ? { url: routine.startUrl } : {}),
      routine: {
        routineId: id,
        name: routine.name,
        steps: fillSteps(routine.steps, filled.values),
        ...(/^https?:/i.test(routine.startUrl) ? { open: routine.startUrl } : {}),
        opened: false,
        done: 0,
        modelCalls: 0,
        repairs: [],
      },
      secrets: filled.secrets,
      params: filled.values,
      ...(schedule ? { schedule } : {}),
    });
  };
  return {
    'routine.save': async ({ taskId, name }) => {
      const record = await deps.task(taskId);
      if (!record?.agent)
        throw new AppError('not_found', 'That task is gone or never looked at a page: run it, then save it.');
      if (record.flow !== 'task')
        throw new AppError('bad_request', 'Only a web task can be saved as a routine, not a support chat.');
      if (!['completed', 'stopped', 'failed'].includes(record.status))
        throw new AppError('busy', 'The task is still working: save it once it has finished.');
      const routine = buildRoutine({
        name,
        task: record.text,
        startUrl: record.startUrl ?? record.agent.startUrl,
        steps: record.agent.steps,
        targets: record.targets ?? {},
        now: deps.now(),
      });
      return deps.store.put({ id: deps.newId(), routine, edited: false, savedAt: deps.now() });
    },
    'routine.list': () => deps.store.list(),
    'routine.delete': async ({ id }) => ({ deleted: await deps.store.delete(id) }),
    'routine.export': async ({ id }) => {
      const saved = await need(id);
      return { fileName: fileName(saved.routine.name), text: await exportRoutine(saved.routine) };
    },
    'routine.import': async ({ text }) => {
      const imported = await importRoutine(text);
      const routine = await deps.store.put({
        id: deps.newId(),
        routine: imported.routine,
        edited: imported.edited,
        savedAt: deps.now(),
      });
      return { routine, note: imported.note };
    },
    'routine.run': ({ id, tabId, params }) => start(id, tabId, params),
    start,
    'routine.update': async ({ taskId }) => {
      const record = await deps.task(taskId);
      const run = record?.routine;
      if (!record || !run) throw new AppError('not_found', 'That task is not a routine replay.');
      const saved = await need(run.routineId);
      const routine = applyRepairs(saved.routine, run.repairs, record.routineParams ?? {});
      return deps.store.put({ ...saved, routine, edited: false, savedAt: deps.now() });
    },
  };
}

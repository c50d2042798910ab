import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { TaskRecord } from '../../shared/protocol';
import type { RoutineSchedule, ScheduleInput } from '../../shared/routines/routine-schedule';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** When a schedule runs next, in the user's words (local time). */
export function whenText(schedule: Pick<RoutineSchedule, 'every' | 'time' | 'weekday' | 'nextAt'>): string {
  const every =
    schedule.every === 'daily'
      ? `Daily at ${schedule.time}`
      : schedule.every === 'weekly'
        ? `Every ${WEEKDAYS[schedule.weekday ?? 0]} at ${schedule.time}`
        : 'Once';
  const next =
    schedule.nextAt === null
      ? 'no next run'
      : `next ${new Date(schedule.nextAt).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}`;
  return `${every} · ${next}`;
}

/** The panel's form, read into a schedule's input; a sentence saying what to fix when a field is not right. */
export function readScheduleForm(
  form: { every: string; at: string; time: string; weekday: string; costCapUsd: string; runsPerDay: string },
  base: { routineId: string; params: Record<string, string> },
): z.output<typeof ScheduleInput> | string {
  const costCapUsd = Number(form.costCapUsd);
  if (form.costCapUsd.trim() === '' || !Number.isFinite(costCapUsd) || costCapUsd <= 0 || costCapUsd > 100)
    return 'The cost cap is an amount in US dollars above 0 and at most 100, such as 0.50.';
  const runsPerDay = Number(form.runsPerDay);
  if (!Number.isInteger(runsPerDay) || runsPerDay < 1 || runsPerDay > 48)
    return 'Runs per day is a whole number from 1 to 48.';
  const common = { ...base, costCapUsd, runsPerDay };
  if (form.every === 'once') {
    const at = form.at === '' ? Number.NaN : new Date(form.at).getTime();
    if (!Number.isFinite(at)) return 'Pick the date and time it runs.';
    return { ...common, every: 'once', at };
  }
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(form.time)) return 'Pick the time of day it runs (HH:MM).';
  if (form.every === 'daily') return { ...common, every: 'daily', time: form.time };
  return { ...common, every: 'weekly', time: form.time, weekday: Number(form.weekday) };
}

/** What a schedule's last run did: the task's state and its answer, or why it did not start. */
function LastRun(props: { client: BackgroundClient; schedule: RoutineSchedule }) {
  const { client, schedule } = props;
  const [record, setRecord] = useState<TaskRecord | null | undefined>(undefined);
  useEffect(() => {
    if (schedule.lastTaskId === undefined) return;
    client.call('task.get', { taskId: schedule.lastTaskId }).then(setRecord, () => setRecord(null));
  }, [client, schedule.lastTaskId]);
  let text = 'Last run: none yet';
  if (schedule.lastError !== undefined) text = `Last run did not start: ${schedule.lastError}`;
  else if (schedule.lastTaskId !== undefined) {
    const said = record?.agent?.outcome?.summary ?? record?.agent?.endReason ?? '';
    text =
      record === undefined
        ? 'Last run: …'
        : record === null
          ? 'Last run: no longer in History'
          : `Last run: ${record.status.replaceAll('_', ' ')}${said ? ` — ${said}` : ''}`;
  }
  return (
    <span class="muted" data-testid="schedule-last">
      {text}
    </span>
  );
}

/**
 * A routine's schedules: each with its next run and its last result, and Clear; and a form that sets a new one (once
 * at a date and time, daily, or weekly) with the values of the routine's parameter form, a cost cap per run and a
 * runs-per-day cap. Runs need the browser open (the extension's alarms).
 */
export function RoutineScheduleForm(props: {
  client: BackgroundClient;
  routineId: string;
  params: Record<string, string>;
}) {
  const { client, routineId } = props;
  const [schedules, setSchedules] = useState<RoutineSchedule[]>([]);
  const [form, setForm] = useState({
    every: 'daily',
    at: '',
    time: '08:00',
    weekday: '1',
    costCapUsd: '0.50',
    runsPerDay: '1',
  });
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const load = (): void =>
    void client.call('routine.schedules', {}).then(
      (all) => setSchedules(all.filter((s) => s.routineId === routineId)),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  useEffect(load, [client, routineId]);
  const field = (name: keyof typeof form) => (event: Event) =>
    setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value });
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setSaid('');
    const input = readScheduleForm(form, { routineId, params: props.params });
    if (typeof input === 'string') return setError(input);
    try {
      setError('');
      const schedule = await client.call('routine.schedule', input);
      setSaid(`Scheduled: ${whenText(schedule)}.`);
      load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const clear = async (id: string): Promise<void> => {
    try {
      await client.call('routine.unschedule', { id });
      setSaid('Schedule cleared.');
      load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <details class="routine-schedule" data-testid="routine-schedule">
      <summary>Schedule{schedules.length > 0 ? ` (${schedules.length})` : ''}</summary>
      <ul class="templates">
        {schedules.map((s) => (
          <li key={s.id} data-testid="schedule-item" data-schedule-id={s.id}>
            <span data-testid="schedule-when">{whenText(s)}</span> · <LastRun client={client} schedule={s} />{' '}
            <button
              type="button"
              class="button button--quiet"
              data-testid="clear-schedule"
              onClick={() => void clear(s.id)}
            >
              Clear
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label class="field">
          <span class="field__label">Runs</span>
          <select data-testid="schedule-every" value={form.every} onChange={field('every')}>
            <option value="once">Once</option>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </label>
        {form.every === 'once' ? (
          <label class="field">
            <span class="field__label">Date and time</span>
            <input type="datetime-local" data-testid="schedule-at" value={form.at} onInput={field('at')} />
          </label>
        ) : (
          <label class="field">
            <span class="field__label">Time of day</span>
            <input type="time" data-testid="schedule-time" value={form.time} onInput={field('time')} />
          </label>
        )}
        {form.every === 'weekly' ? (
          <label class="field">
            <span class="field__label">Day</span>
            <select data-testid="schedule-weekday" value={form.weekday} onChange={field('weekday')}>
              {WEEKDAYS.map((day, index) => (
                <option key={day} value={String(index)}>
                  {day}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label class="field">
          <span class="field__label">Cost cap per run (US$)</span>
          <input
            data-testid="schedule-cost"
            inputMode="decimal"
            value={form.costCapUsd}
            onInput={field('costCapUsd')}
          />
        </label>
        <label class="field">
          <span class="field__label">Runs per day at most</span>
          <input
            data-testid="schedule-runs"
            inputMode="numeric"
            value={form.runsPerDay}
            onInput={field('runsPerDay')}
          />
        </label>
        <p class="hint">
          It runs with the values above, in a tab of its own, while the browser is open; a step that needs approval
          waits for you. A schedule never keeps a secret: for a secret value write the placeholder of an entry in
          Settings → Personal data, such as {'{{card_number}}'}.
        </p>
        <button type="submit" class="button" data-testid="schedule-routine">
          Schedule
        </button>
      </form>
      <p class="form-error" role="alert" data-testid="schedule-error">
        {error}
      </p>
      <p class="muted" role="status" data-testid="schedule-said">
        {said}
      </p>
    </details>
  );
}

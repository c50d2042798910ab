import { useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { StoredRoutine } from '../../shared/routines/routine';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';
import { RoutineScheduleForm } from './routine-schedule-form';

const ENDED = new Set(['completed', 'failed', 'stopped']);

/**
 * Under a finished web task: save it as a routine (a name, then its steps by element identity and the values the user
 * gave as parameters), and under a replay the model had to repair, take the repaired steps into the routine.
 */
export function SaveRoutineCard(props: { client: BackgroundClient; record: TaskRecord }) {
  const { client, record } = props;
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  if (record.flow !== 'task' || !ENDED.has(record.status) || !record.agent) return null;
  const repairs = record.routine?.repairs.filter((r) => r.replacement !== null).length ?? 0;
  // Every press says what happened: "Saving…" at once, then what was saved or why not (a lost reply times out into an
  // error); the name stays in the box until it is saved, so nothing typed is lost to a failure.
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setSaid({ ok: true, text: 'Saving…' });
    try {
      const saved = await client.call('routine.save', { taskId: record.id, name });
      const params = saved.routine.params.map((p) => p.name);
      setSaid({ ok: true, text: `Saved the routine “${saved.routine.name}”: ${saved.routine.steps.length} steps${params.length > 0 ? `, asks for ${params.join(', ')}` : ''}.` });
      setName('');
    } catch (error) {
      setSaid({ ok: false, text: `Not saved: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  };
  const update = async (): Promise<void> => {
    if (busy) return;
    setBusy(true);
    setSaid({ ok: true, text: 'Updating…' });
    try {
      const saved = await client.call('routine.update', { taskId: record.id });
      setSaid({ ok: true, text: `Updated the routine “${saved.routine.name}” with the repaired step${repairs === 1 ? '' : 's'}.` });
    } catch (error) {
      setSaid({ ok: false, text: `Not updated: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  };
  // The card sits just above the docked input: while the user is in it, all of it (the button too) is kept in view.
  const intoView = (event: FocusEvent): void => {
    (event.currentTarget as Element).scrollIntoView({ block: 'nearest' });
  };
  return (
    <section class="card" data-testid="save-routine" aria-label="Routine" onFocusCapture={intoView}>
      {record.routine ? (
        repairs > 0 ? (
          <div class="button-row">
            <span>The model repaired {repairs === 1 ? 'a step' : `${repairs} steps`} of this routine.</span>
            <button type="button" class="button" data-testid="update-routine" disabled={busy} onClick={() => void update()}>
              Update the routine
            </button>
          </div>
        ) : null
      ) : (
        <form class="button-row" onSubmit={(event) => void save(event)}>
          <label class="field">
            <span class="field__label">Save as routine (runs again without the model)</span>
            <input data-testid="routine-name" value={name} maxLength={80} placeholder="Name, e.g. Weekly groceries" onInput={(event) => setName(event.currentTarget.value)} />
          </label>
          <button type="submit" class="button" data-testid="save-routine-button" disabled={busy || name.trim() === ''}>
            Save as routine
          </button>
        </form>
      )}
      {said ? (
        <p class={said.ok ? 'muted' : 'form-error'} role={said.ok ? 'status' : 'alert'} data-testid="routine-said">
          {said.text}
        </p>
      ) : null}
    </section>
  );
}

/** One routine: its sites, whether its file was edited, a form for its parameters, Run, Export and Delete. */
export function RoutineCard(props: { client: BackgroundClient; saved: StoredRoutine; tabId: number | undefined; onStarted: (record: TaskRecord) => void; onChanged: () => void }) {
  const { client, saved } = props;
  const { routine } = saved;
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(routine.params.map((p) => [p.name, p.kind === 'secret' ? '' : (p.example ?? '')])));
  const [error, setError] = useState('');
  const run = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (props.tabId === undefined) return setError('There is no tab to run it in.');
    try {
      setError('');
      props.onStarted(await client.call('routine.run', { id: saved.id, tabId: props.tabId, params: values }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const exportFile = async (): Promise<void> => {
    try {
      const file = await client.call('routine.export', { id: saved.id });
      const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const remove = async (): Promise<void> => {
    await client.call('routine.delete', { id: saved.id }).catch((failure: unknown) => setError(errorMessage(failure)));
    props.onChanged();
  };
  return (
    <li class="card" data-testid="routine" data-routine-id={saved.id} data-edited={saved.edited ? 'true' : 'false'}>
      <strong data-testid="routine-title">{routine.name}</strong>
      {saved.edited ? (
        <p class="form-error" data-testid="routine-edited">
          Edited: this routine came from a file changed after it was exported. Read its sites and steps before you run it.
        </p>
      ) : null}
      <p class="muted" data-testid="routine-sites">
        Sites: {routine.sites.join(', ') || 'none'} · {routine.steps.length} steps
      </p>
      <form onSubmit={(event) => void run(event)}>
        {routine.params.map((param) => (
          <label class="field" key={param.name}>
            <span class="field__label">
              {param.name} ({param.kind})
            </span>
            <input
              data-testid="routine-param"
              data-param={param.name}
              type={param.kind === 'secret' ? 'password' : 'text'}
              inputMode={param.kind === 'number' ? 'decimal' : undefined}
              placeholder={param.kind === 'date' ? 'YYYY-MM-DD' : ''}
              value={values[param.name] ?? ''}
              onInput={(event) => setValues({ ...values, [param.name]: event.currentTarget.value })}
            />
          </label>
        ))}
        <div class="button-row">
          <button type="submit" class="button" data-testid="run-routine">
            Run
          </button>
          <button type="button" class="button button--quiet" data-testid="export-routine" onClick={() => void exportFile()}>
            Export
          </button>
          <button type="button" class="button button--danger" data-testid="delete-routine" onClick={() => void remove()}>
            Delete
          </button>
        </div>
      </form>
      <p class="form-error" role="alert" data-testid="routine-error">
        {error}
      </p>
      <RoutineScheduleForm client={client} routineId={saved.id} params={values} />
    </li>
  );
}

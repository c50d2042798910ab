import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { StoredRoutine } from '../../shared/routines/routine';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';
import { RoutineCard } from './routine-cards';

/** The user's routines, each runnable on this tab with its parameters, and a routine file to import. */
export function RoutinesList(props: { client: BackgroundClient; tabId: number | undefined; onStarted: (record: TaskRecord) => void }) {
  const { client } = props;
  const [routines, setRoutines] = useState<StoredRoutine[] | undefined>(undefined);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const load = (): void => void client.call('routine.list', {}).then(setRoutines, () => setRoutines([]));
  useEffect(load, [client]);
  const importFile = async (event: Event): Promise<void> => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    try {
      const imported = await client.call('routine.import', { text: await file.text() });
      setNote({ ok: imported.note === null, text: imported.note ?? `Imported “${imported.routine.routine.name}”.` });
      load();
    } catch (error) {
      setNote({ ok: false, text: errorMessage(error) });
    }
  };
  return (
    <section class="routines" data-testid="routines" aria-labelledby="routines-title">
      <p class="section-title" id="routines-title">
        Your routines
      </p>
      {routines && routines.length > 0 ? (
        <ul class="templates">
          {routines.map((saved) => (
            <RoutineCard key={saved.id} client={client} saved={saved} tabId={props.tabId} onStarted={props.onStarted} onChanged={load} />
          ))}
        </ul>
      ) : (
        <p class="hint">A task you finish can be saved as a routine, then run again here without the model.</p>
      )}
      <label class="field">
        <span class="field__label">Import a routine file</span>
        <input type="file" accept=".json,application/json" data-testid="import-routine" onChange={(event) => void importFile(event)} />
      </label>
      {note ? (
        <p class={note.ok ? 'muted' : 'form-error'} role={note.ok ? 'status' : 'alert'} data-testid="import-note">
          {note.text}
        </p>
      ) : null}
    </section>
  );
}

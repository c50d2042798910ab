import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { downloadBytes, downloadText } from '../ui/download-text';
import { textPdf } from '../ui/text-pdf';
import { errorMessage } from '../ui/error-message';
import { groupBySite, matchingTasks } from '../ui/history-groups';
import { historyTotals, totalText, type UsageTotal } from '../ui/history-totals';
import { elapsedMs, formatDuration, formatTaskCost, isActiveTask, statusLabel } from '../ui/task-format';
import { caseFileLines, exportFileName, taskReport } from '../ui/task-report';
import { TaskProgress } from '../ui/task-progress';
import { useUndoableDelete } from '../ui/use-undoable-delete';

/**
 * Past tasks per site with outcome, duration and cost (tokens where the model's price is unknown), searchable by words
 * and site; one opens to its steps, exports, deletion (with undo) and rerun.
 */
export function HistoryView(props: { client: BackgroundClient; onRerun: (record: TaskRecord) => void; openTask?: { id: string; at: number } | undefined }) {
  const { client } = props;
  const [records, setRecords] = useState<TaskRecord[] | undefined>(undefined);
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  const [query, setQuery] = useState('');
  const deletion = useUndoableDelete((taskId) => client.call('task.delete', { taskId }));

  const load = (): void => {
    client.call('task.list', { limit: 200 }).then(setRecords, (failure: unknown) => setError(errorMessage(failure)));
  };
  useEffect(load, [client]);
  // A task opened from elsewhere (the popup's recent tasks) shows at once; `at` makes the same task open again.
  useEffect(() => {
    if (props.openTask) setOpenId(props.openTask.id);
  }, [props.openTask?.id, props.openTask?.at]);

  const open = records?.find((r) => r.id === openId);
  if (open) {
    const exportTrace = (): void => {
      client.call('task.trace', { taskId: open.id }).then(
        (trace) => downloadText(exportFileName(open, 'jsonl'), trace.jsonl, 'application/x-ndjson'),
        (failure: unknown) => setError(errorMessage(failure)),
      );
    };
    const remove = (): void => {
      deletion.remove(open.id);
      setOpenId(undefined);
    };
    return (
      <section class="history" data-testid="history-detail" data-task-id={open.id}>
        <button type="button" class="link-button" data-testid="history-back" onClick={() => setOpenId(undefined)}>
          ← All tasks
        </button>
        <div class="button-row">
          <button type="button" class="button button--quiet" data-testid="export-trace" onClick={exportTrace}>
            Export trace (JSONL)
          </button>
          <button type="button" class="button button--quiet" data-testid="export-report" onClick={() => downloadText(exportFileName(open, 'md'), taskReport(open), 'text/markdown')}>
            Export report
          </button>
          {open.chat ? (
            <button type="button" class="button button--quiet" data-testid="export-case-pdf" onClick={() => downloadBytes(exportFileName(open, 'pdf'), textPdf(`Deputy support case on ${open.site}`, caseFileLines(open.chat!).join('\n').replace(/\*\*/g, '')), 'application/pdf')}>
              Export case file (PDF)
            </button>
          ) : null}
          <button type="button" class="button button--quiet" data-testid="rerun" onClick={() => props.onRerun(open)}>
            Run again
          </button>
          <button type="button" class="button button--danger" data-testid="delete-task" disabled={isActiveTask(open)} onClick={remove}>
            Delete
          </button>
        </div>
        <p class="form-error" role="alert">
          {error}
        </p>
        <TaskProgress client={client} record={open} onChange={(updated) => setRecords(records?.map((r) => (r.id === updated.id ? updated : r)))} />
      </section>
    );
  }

  if (!records) return <p class="muted">Loading history…</p>;
  const deleted = records.find((r) => r.id === deletion.pending);
  const shown = matchingTasks(
    records.filter((r) => r.id !== deletion.pending),
    query,
  );
  const groups = groupBySite(shown);
  return (
    <section class="history" data-testid="history" aria-label="History">
      <label class="field">
        <span class="field__label">Search tasks</span>
        <input type="search" data-testid="history-search" value={query} placeholder="Words from the task, or a site" onInput={(event) => setQuery(event.currentTarget.value)} />
      </label>
      {deleted ? (
        <p class="undo-bar" role="status" data-testid="undo-delete-bar">
          <span>Deleted “{deleted.text}”.</span>
          <button type="button" class="link-button" data-testid="undo-delete" onClick={deletion.undo}>
            Undo
          </button>
        </p>
      ) : null}
      <p class="form-error" role="alert">
        {error}
      </p>
      {groups.length === 0 ? (
        <p class="muted" data-testid="history-empty">
          {records.length === 0 ? 'No tasks yet. Tasks you run appear here, by site.' : `No task matches “${query}”.`}
        </p>
      ) : null}
      {shown.length > 0 ? <HistoryTotals records={shown} filtered={query.trim() !== ''} /> : null}
      {groups.map((group) => (
        <section key={group.site} class="history__site" aria-label={group.site}>
          <h2 class="section-title">{group.site}</h2>
          <ul class="history__list">
            {group.records.map((record) => (
              <li key={record.id}>
                <button type="button" class="history__item" data-testid="history-item" data-task-id={record.id} onClick={() => setOpenId(record.id)}>
                  <span class="history__text">{record.text}</span>
                  <span class="history__meta">
                    <span class={`status status--${record.status}`}>{statusLabel(record)}</span>
                    <span>{formatDuration(elapsedMs(record, Date.now()))}</span>
                    <span data-testid="history-cost">{formatTaskCost(record)}</span>
                    <span>{new Date(record.createdAt).toLocaleString()}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

function TotalRows(props: { title: string; rows: UsageTotal[]; testId: string }) {
  return (
    <section class="history-totals__group" aria-label={props.title}>
      <h3 class="history-totals__title">{props.title}</h3>
      <ul class="history-totals__list" data-testid={props.testId}>
        {props.rows.map((row) => (
          <li key={row.key} class="history-totals__row" data-testid="history-total">
            <span class="history-totals__name">{row.label}</span>
            <span class="history-totals__value">{totalText(row)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the tasks shown cost, per day and per site: dollars where priced, tokens only for a local model. */
function HistoryTotals(props: { records: TaskRecord[]; filtered: boolean }) {
  const totals = historyTotals(props.records);
  return (
    <details class="history-totals card" data-testid="history-totals">
      <summary>Totals{props.filtered ? ' of the tasks found' : ''}, per day and per site</summary>
      <TotalRows title="Per day" rows={totals.days} testId="history-totals-days" />
      <TotalRows title="Per site" rows={totals.sites} testId="history-totals-sites" />
    </details>
  );
}

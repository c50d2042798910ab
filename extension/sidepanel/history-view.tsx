import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { downloadText } from '../ui/download-text';
import { errorMessage } from '../ui/error-message';
import { groupBySite } from '../ui/history-groups';
import { elapsedMs, formatCost, formatDuration, isActiveTask, statusLabel } from '../ui/task-format';
import { exportFileName, taskReport } from '../ui/task-report';
import { StepScreenshots } from '../ui/step-screenshots';
import { TaskProgress } from '../ui/task-progress';

/** Past tasks per site with outcome, duration and cost; one opens to its steps, exports, deletion and rerun. */
export function HistoryView(props: { client: BackgroundClient; onRerun: (record: TaskRecord) => void }) {
  const { client } = props;
  const [records, setRecords] = useState<TaskRecord[] | undefined>(undefined);
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');

  const load = (): void => {
    client.call('task.list', { limit: 200 }).then(setRecords, (failure: unknown) => setError(errorMessage(failure)));
  };
  useEffect(load, [client]);

  const open = records?.find((r) => r.id === openId);
  if (open) {
    const exportTrace = (): void => {
      client.call('task.trace', { taskId: open.id }).then(
        (trace) => downloadText(exportFileName(open, 'jsonl'), trace.jsonl, 'application/x-ndjson'),
        (failure: unknown) => setError(errorMessage(failure)),
      );
    };
    const remove = (): void => {
      client.call('task.delete', { taskId: open.id }).then(() => {
        setOpenId(undefined);
        load();
      }, (failure: unknown) => setError(errorMessage(failure)));
    };
    return (
      <section class="history" data-testid="history-detail">
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
        <StepScreenshots client={client} taskId={open.id} />
      </section>
    );
  }

  if (!records) return <p class="muted">Loading history…</p>;
  const groups = groupBySite(records);
  return (
    <section class="history" data-testid="history" aria-label="History">
      <p class="form-error" role="alert">
        {error}
      </p>
      {groups.length === 0 ? <p class="muted">No tasks yet. Tasks you run appear here, by site.</p> : null}
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
                    <span>{formatCost(record.agent?.usage.costUsd)}</span>
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

import type { TaskRecord } from '../../shared/protocol';
import { plainText } from './step-wording';
import { stepLines } from './task-format';

/**
 * What a screen reader hears as the task goes on, without moving focus: each new step as it settles (politely), and
 * an approval or question the moment it waits for the user (assertively, since the task is stopped until then).
 */
export function TaskAnnouncer(props: { record: TaskRecord }) {
  const { record } = props;
  const lines = stepLines(record.agent?.steps ?? [], record.notes, record.status === 'paused');
  const last = lines.at(-1);
  const step = last ? `${last.number > 0 ? `Step ${last.number}: ` : ''}${last.text}${last.check ? `. ${last.check}` : ''}` : '';
  const waiting = record.approval
    ? record.approval.tool === 'update_plan'
      ? 'Deputy needs your approval to start its plan.'
      : `Deputy needs your approval: ${plainText(record.approval.intent)}.`
    : record.question
      ? `Deputy asks: ${record.question.text}`
      : '';
  return (
    <>
      <p class="visually-hidden" aria-live="polite" data-testid="announce-step">
        {step}
      </p>
      <p class="visually-hidden" aria-live="assertive" data-testid="announce-attention">
        {waiting}
      </p>
    </>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import type { Plan } from '../../shared/agent/plan';
import { planOrigins } from '../../shared/agent/plan-scope';
import { originLabel, originOf } from '../../shared/agent/site-list';
import type { PendingApproval } from '../../shared/protocol';
import { useCardSend } from './use-card-send';

/** The note that asks the model for the user's own steps instead of its plan. */
export function editedPlanNote(steps: readonly string[]): string {
  return `Use this plan instead, in this order:\n${steps.map((step, index) => `${index + 1}. ${step}`).join('\n')}`;
}

/**
 * The plan the model wants to follow in ask-first mode, as a card of its own: its steps as a list, and Start (approve
 * the plan), Edit steps (send the user's own steps back for the model to follow) or Cancel (stop the task).
 */
export function PlanApprovalCard(props: {
  approval: PendingApproval;
  plan: Plan | null;
  /** What the task will cost with this plan, in words (see planEstimate). */
  estimate?: string | null;
  /** Where the task started: a bare host the plan names takes its scheme. */
  startUrl?: string;
  onDecide: (decision: 'approve' | 'reject', note?: string) => Promise<unknown>;
  onCancel: () => Promise<unknown>;
}) {
  const { approval, plan } = props;
  const steps = plan?.steps.map((step) => step.step) ?? [];
  // The sites approving the plan approves, as the gate reads them (exact origins), besides the one the task is on.
  const startOrigin = originOf(props.startUrl ?? approval.url);
  const sites = [...(startOrigin ? [startOrigin] : []), ...planOrigins(plan, props.startUrl ?? approval.url)].map(originLabel);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const start = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const card = useCardSend(approval.id, () => setEditing(false));
  const { sending, error } = card;
  useEffect(() => (editing ? box : start).current?.focus(), [approval.id, editing]);
  const titleId = `plan-approval-${approval.id}`;

  const sendEdited = (): void => {
    const lines = draft
      .split('\n')
      .map((line) => line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim())
      .filter(Boolean);
    if (lines.length === 0) {
      card.setError('Write at least one step, one a line.');
      return;
    }
    card.send(() => props.onDecide('reject', editedPlanNote(lines)));
  };

  return (
    <section
      class="card approval plan-approval"
      role="region"
      aria-labelledby={titleId}
      data-testid="plan-approval-card"
      data-approval-id={approval.id}
    >
      <h3 id={titleId} class="approval__title">
        Start with this plan?
      </h3>
      {plan?.explanation ? <p class="muted">{plan.explanation}</p> : null}
      {editing ? (
        <label class="field">
          <span class="field__label">Your steps, one a line</span>
          <textarea
            ref={box}
            rows={Math.min(10, Math.max(3, steps.length + 1))}
            data-testid="plan-edit-input"
            value={draft}
            onInput={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Esc leaves the editor (and does not stop the task).
              if (event.key !== 'Escape') return;
              event.preventDefault();
              setEditing(false);
            }}
          />
        </label>
      ) : (
        <ol class="plan-approval__list" data-testid="plan-approval-steps">
          {steps.length > 0 ? steps.map((step, index) => <li key={index}>{step}</li>) : <li>{approval.reason}</li>}
        </ol>
      )}
      {editing || !props.estimate ? null : (
        <p class="plan-approval__estimate" data-testid="plan-estimate">
          <strong>Cost estimate:</strong> {props.estimate}
        </p>
      )}
      {editing ? null : (
        <p class="plan-approval__scope hint" data-testid="plan-approval-scope">
          Start approves its routine steps on {sites.join(', ') || 'the sites it opens'}. Paying, changing your account, sending a message,
          deleting, keeping a downloaded program and any other site still ask.
        </p>
      )}
      <div class="button-row">
        {editing ? (
          <>
            <button type="button" class="button" data-testid="plan-send-edit" disabled={sending} onClick={sendEdited}>
              Use my steps
            </button>
            <button
              type="button"
              class="button button--quiet"
              data-testid="plan-edit-back"
              disabled={sending}
              onClick={() => setEditing(false)}
            >
              Back
            </button>
          </>
        ) : (
          <>
            <button
              ref={start}
              type="button"
              class="button"
              data-testid="plan-start"
              disabled={sending}
              onClick={() => card.send(() => props.onDecide('approve'))}
            >
              Start
            </button>
            <button
              type="button"
              class="button button--quiet"
              data-testid="plan-edit"
              disabled={sending}
              onClick={() => {
                setDraft(steps.join('\n'));
                setEditing(true);
              }}
            >
              Edit steps
            </button>
            <button
              type="button"
              class="button button--quiet"
              data-testid="plan-cancel"
              disabled={sending}
              onClick={() => card.send(props.onCancel)}
            >
              Cancel
            </button>
          </>
        )}
      </div>
      <p class="form-error" role="alert">
        {error}
      </p>
    </section>
  );
}

import { useState } from 'preact/hooks';
import type { LoopDraftField, LoopSnapshot } from '../../shared/protocol/loop-protocol';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';

interface Draft {
  model: string;
  definition: Record<string, unknown>;
  fields: LoopDraftField[];
}

/**
 * "Describe a loop": the user writes what the loop should do in words, the saved model drafts the definition (the
 * host validates it like deputy.loop.json), the draft is shown field by field, and Start starts exactly that draft
 * for the repository folder of the form below. Nothing starts before Start.
 */
export function LoopDescribeBox(props: { client: BackgroundClient; repo: string; disabled: boolean; onStarted: (loop: LoopSnapshot) => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'drafting' | 'starting' | undefined>(undefined);
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const repo = props.repo.trim();

  const draftIt = (): void => {
    if (!text.trim()) return setError('Describe the loop first, e.g. "the results are emailed to me, compare them with the template and fix the backend".');
    if (!repo) return setError('Enter the repository folder in the form below first: the draft is made for that checkout.');
    setError(undefined);
    setDraft(undefined);
    setBusy('drafting');
    props.client.call('loop.describe', { description: text.trim(), repo }).then(
      (drafted) => {
        setBusy(undefined);
        setDraft(drafted);
      },
      (failure: unknown) => {
        setBusy(undefined);
        setError(errorMessage(failure));
      },
    );
  };

  const start = (): void => {
    if (!draft) return;
    setBusy('starting');
    props.client.call('loop.start', { config: { ...draft.definition, repo }, resume: false, restart: false }).then(
      (started) => {
        setBusy(undefined);
        setDraft(undefined);
        props.onStarted(started);
      },
      (failure: unknown) => {
        setBusy(undefined);
        setError(errorMessage(failure));
      },
    );
  };

  const off = props.disabled || busy !== undefined;
  return (
    <section class="loop-form card" aria-label="Describe a loop" data-testid="loop-describe">
      <div class="field">
        <label class="field__label" for="loop-describe-text">
          Describe a loop
        </label>
        <textarea id="loop-describe-text" data-testid="loop-describe-text" rows={2} value={text} disabled={off} placeholder="The results are emailed to me, compare them with the template and fix the backend" onInput={(e) => setText(e.currentTarget.value)} />
        <span class="hint">Your model drafts the definition for the repository folder below; you see every field before anything starts.</span>
      </div>
      <div class="button-row">
        <button type="button" class="button button--quiet" data-testid="loop-describe-draft" disabled={off} onClick={draftIt}>
          {busy === 'drafting' ? 'Drafting…' : 'Draft'}
        </button>
      </div>
      {error ? (
        <p class="form-error" role="alert" data-testid="loop-describe-error">
          {error}
        </p>
      ) : null}
      {draft ? (
        <>
          <p class="hint" data-testid="loop-draft-model">
            Drafted by {draft.model}. Check each field, then Start.
          </p>
          <dl class="loop-draft" data-testid="loop-draft-fields">
            {draft.fields.map((item) => (
              <div key={item.field} data-testid="loop-draft-field">
                <dt>
                  {item.label} <code>{item.field}</code>
                </dt>
                <dd>{item.value}</dd>
              </div>
            ))}
          </dl>
          <div class="button-row">
            <button type="button" class="button" data-testid="loop-draft-start" disabled={off} onClick={start}>
              {busy === 'starting' ? 'Starting…' : 'Start'}
            </button>
            <button type="button" class="button button--quiet" data-testid="loop-draft-discard" disabled={off} onClick={() => setDraft(undefined)}>
              Discard
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

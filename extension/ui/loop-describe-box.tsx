import { useRef, useState } from 'preact/hooks';
import type { LoopDraftField, LoopSnapshot } from '../../shared/protocol/loop-protocol';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';
import { useNow } from './use-now';

/**
 * Drafting waits for the model, twice at worst (one retry after an invalid draft), so it is not bounded by the panel's
 * generic 30 s call timeout: the host gives each draft its own deadline (150 s, naming the model when it passes), the
 * background waits 180 s for the host, and the panel waits a little longer than that, so the error the user sees is
 * the host's and says what to do. Until then the panel shows the time spent and offers Cancel.
 */
export const DESCRIBE_PANEL_TIMEOUT_MS = 190_000;

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
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [startedAt, setStartedAt] = useState(0);
  // The draft the panel is waiting for; a draft cancelled (or replaced) no longer owns the view when it answers late.
  const current = useRef<string | undefined>(undefined);
  const now = useNow(busy === 'drafting');
  const repo = props.repo.trim();

  const draftIt = (): void => {
    if (!text.trim()) return setError('Describe the loop first, e.g. "the results are emailed to me, compare them with the template and fix the backend".');
    if (!repo) return setError('Enter the repository folder in the form below first: the draft is made for that checkout.');
    setError(undefined);
    setNotice(undefined);
    setDraft(undefined);
    setBusy('drafting');
    setStartedAt(Date.now());
    const draftId = `draft-${crypto.randomUUID()}`;
    current.current = draftId;
    props.client.call('loop.describe', { description: text.trim(), repo, draftId }, { timeoutMs: DESCRIBE_PANEL_TIMEOUT_MS }).then(
      (drafted) => {
        if (current.current !== draftId) return;
        current.current = undefined;
        setBusy(undefined);
        setDraft(drafted);
      },
      (failure: unknown) => {
        if (current.current !== draftId) return;
        current.current = undefined;
        setBusy(undefined);
        setError(errorMessage(failure));
      },
    );
  };

  const cancel = (): void => {
    const draftId = current.current;
    if (!draftId) return;
    current.current = undefined;
    setBusy(undefined);
    setNotice('Drafting cancelled; nothing was started.');
    // The host stops the model request; if the host is gone there is nothing left to stop.
    props.client.call('loop.describeCancel', { draftId }).catch(() => undefined);
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
        {busy === 'drafting' ? (
          <button type="button" class="button button--quiet" data-testid="loop-describe-cancel" onClick={cancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {busy === 'drafting' ? (
        <p class="hint" role="status" data-testid="loop-describe-progress">
          Waiting for your model to draft the loop… {Math.max(0, Math.floor((now - startedAt) / 1000))} s
        </p>
      ) : null}
      {notice && busy === undefined && !draft ? (
        <p class="hint" role="status" data-testid="loop-describe-notice">
          {notice}
        </p>
      ) : null}
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

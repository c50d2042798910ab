import { useState } from 'preact/hooks';
import { COST_CAP_STOP } from '../../shared/agent/cost-cap';
import { errorMessage } from './error-message';

/** Whether an ended run's summary says it stopped at its cost cap (the agent core's own words for it). */
export function stoppedAtCap(status: string, summary: string | null): boolean {
  return status === 'stopped' && (summary ?? '').startsWith(COST_CAP_STOP);
}

/** The new cap as typed: dollars above 0 and up to 1000 ("0.50", "$2"), or an error that says what to type. */
export function parseNewCap(text: string): { cap: number } | { error: string } {
  const cleaned = text.trim().replace(/^\$/, '');
  const cap = cleaned === '' ? NaN : Number(cleaned);
  if (!Number.isFinite(cap) || cap <= 0 || cap > 1000) return { error: 'The new cap is an amount in dollars above 0 and up to 1000, for example 0.50.' };
  return { cap };
}

/**
 * Under a task that stopped at its cost cap: a new cap (the saved one to start with) and Continue, which goes on with
 * the same task from where it stopped. The new cap counts from here, as a web task's follow-up does.
 */
export function ContinueAfterCap(props: { savedCap: number | null; testId: string; onContinue: (cap: number) => Promise<unknown> }) {
  const [text, setText] = useState(props.savedCap === null ? '' : String(props.savedCap));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = `${props.testId}-cap`;
  const go = (): void => {
    const parsed = parseNewCap(text);
    if ('error' in parsed) return setError(parsed.error);
    setError('');
    setBusy(true);
    props.onContinue(parsed.cap).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(errorMessage(failure));
      },
    );
  };
  return (
    <form
      class="continue-cap"
      data-testid={props.testId}
      onSubmit={(event) => {
        event.preventDefault();
        go();
      }}
    >
      <div class="field">
        <label class="field__label" for={id}>
          New cap for the rest (dollars)
        </label>
        <input id={id} data-testid={`${props.testId}-input`} inputMode="decimal" value={text} placeholder="0.50" disabled={busy} onInput={(e) => setText(e.currentTarget.value)} />
      </div>
      <div class="button-row">
        <button type="submit" class="button" data-testid={`${props.testId}-button`} disabled={busy}>
          {busy ? 'Continuing…' : 'Continue with the new cap'}
        </button>
      </div>
      {error ? (
        <p class="form-error" role="alert" data-testid={`${props.testId}-error`}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

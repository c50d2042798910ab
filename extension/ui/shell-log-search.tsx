import { useState } from 'preact/hooks';
import type { ResultOf, UiMethods } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';
import { errorMessage } from './error-message';

type Found = ResultOf<UiMethods, 'shell.search'>;

/** Search over the session's whole log (every command and all of its output), with lines around each match. */
export function ShellLogSearch(props: { client: BackgroundClient; sessionId: string }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found | undefined>(undefined);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const search = (): void => {
    if (!query.trim()) return;
    setBusy(true);
    setError('');
    props.client.call('shell.search', { sessionId: props.sessionId, query: query.trim(), regex: false, context: 2, maxResults: 20 }).then(
      (result) => {
        setBusy(false);
        setFound(result);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(errorMessage(failure));
      },
    );
  };
  return (
    <section class="shell-search" aria-label="Search the log">
      <h3 class="section-title">Log</h3>
      <form
        class="shell-search__form"
        onSubmit={(event) => {
          event.preventDefault();
          search();
        }}
      >
        <input type="search" class="composer__input" data-testid="shell-search-input" placeholder="Search commands and output" value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
        <button type="submit" class="button button--quiet" data-testid="shell-search-run" disabled={busy || !query.trim()}>
          Search
        </button>
      </form>
      <p class="form-error" role="alert">
        {error}
      </p>
      {found ? (
        <div data-testid="shell-search-results">
          <p class="hint" data-testid="shell-search-summary">
            {found.matches === 0 ? `Nothing found in ${found.linesSearched} lines.` : `${found.matches} matching ${found.matches === 1 ? 'line' : 'lines'} in ${found.linesSearched}.`}
          </p>
          {found.hits.map((hit, i) => (
            <div key={i} class="shell-hit" data-testid="shell-search-hit">
              <p class="shell-hit__source">{hit.source}</p>
              <pre class="shell-output">
                {hit.lines.map((line) => (
                  <span key={line.n} class={line.match ? 'shell-hit__match' : undefined}>
                    {`${String(line.n).padStart(5)}  ${line.text}\n`}
                  </span>
                ))}
              </pre>
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}

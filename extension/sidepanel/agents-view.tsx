import type { McpActivity, McpSessionView, McpView } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { errorMessage } from '../ui/error-message';
import { MCP_ADD_COMMAND } from '../ui/mcp-settings-fields';
import { useState } from 'preact/hooks';

const STATE_TEXT: Record<McpActivity['state'], string> = {
  running: 'running',
  awaiting_approval: 'waiting for you',
  done: 'done',
  failed: 'failed',
  denied: 'refused',
  cancelled: 'cancelled',
};

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function Session(props: { client: BackgroundClient; view: McpSessionView }) {
  const { view } = props;
  const [error, setError] = useState('');
  const name = view.session.kind === 'task' ? 'Deputy shell task' : view.session.client.name;
  const stop = (): void => {
    setError('');
    props.client.call('mcp.stop', { sessionId: view.session.id }).catch((failure: unknown) => setError(errorMessage(failure)));
  };
  return (
    <section class="card mcp-session" data-testid="mcp-session" data-session-id={view.session.id} data-state={view.state} aria-label={name}>
      <header class="mcp-session__head">
        <strong data-testid="mcp-session-client">{name}</strong>
        {view.session.client.version ? <span class="muted"> {view.session.client.version}</span> : null}
        <span class="muted" data-testid="mcp-session-state">
          {' '}
          · {view.state === 'connected' ? `connected since ${clock(view.connectedAt)}` : view.state === 'stopped' ? 'stopped by you' : 'disconnected'}
          {view.tabId !== undefined ? ` · tab ${view.tabId}` : ''}
        </span>
      </header>
      {view.reason && view.state !== 'connected' ? <p class="muted">{view.reason}</p> : null}
      <ol class="mcp-log" data-testid="mcp-log">
        {view.activity.map((entry) => (
          <li key={entry.callId} class={`mcp-log__entry mcp-log__entry--${entry.state}`} data-testid="mcp-log-entry" data-state={entry.state}>
            <span class="mcp-log__time">{clock(entry.at)}</span> <span data-testid="mcp-log-text">{entry.text}</span>
            {entry.tabId !== undefined ? <span class="muted"> (tab {entry.tabId})</span> : null}
            <span class="muted"> · {STATE_TEXT[entry.state]}</span>
            {entry.summary && entry.state !== 'running' ? <div class="mcp-log__summary muted">{entry.summary}</div> : null}
          </li>
        ))}
      </ol>
      {view.state === 'connected' ? (
        <div class="button-row">
          <button type="button" class="button button--danger" data-testid="mcp-stop" onClick={stop}>
            Stop
          </button>
        </div>
      ) : null}
      <p class="form-error" role="alert">
        {error}
      </p>
    </section>
  );
}

/** Agents connected over MCP: who, in which tab, what they did step by step, and Stop. */
export function AgentsView(props: { client: BackgroundClient; view: McpView | undefined }) {
  const { view } = props;
  if (!view) return <p class="muted">Loading…</p>;
  const sessions = [...view.sessions].reverse();
  return (
    <div class="agents" data-testid="agents-view">
      {view.enabled ? null : (
        <p class="card muted" data-testid="mcp-off">
          Other agents cannot use Deputy yet: turn on "Let other agents use Deputy" in Settings, then register Deputy in your agent with <code>{MCP_ADD_COMMAND}</code>.
        </p>
      )}
      {sessions.length === 0 ? (
        <div class="card" data-testid="agents-empty">
          <p>No agent has connected in this browser session.</p>
          <p class="muted">
            To connect one, install the host (<code>npm run host:install</code> in the Deputy folder), then register Deputy in your agent: for Claude Code,{' '}
            <code>{MCP_ADD_COMMAND}</code>; for Cursor, Codex and others, add an MCP server that runs <code>deputy mcp</code>. Its steps show here as it works,
            and the ones that need you wait above every view.
          </p>
        </div>
      ) : sessions.map((session) => <Session key={session.session.id} client={props.client} view={session} />)}
    </div>
  );
}

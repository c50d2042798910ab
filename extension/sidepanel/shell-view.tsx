import { useEffect, useState } from 'preact/hooks';
import type { HostStatus, ShellSessionSummary } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { ComposerText } from '../ui/composer-text';
import { errorMessage } from '../ui/error-message';
import { HostStatusLine } from '../ui/host-status-line';
import { ModeSwitch } from '../ui/mode-switch';
import { ShellProgress } from '../ui/shell-progress';
import { useShellRun } from '../ui/use-shell-run';
import { useTaskMode } from '../ui/use-task-mode';
import '../ui/shell.css';

type Where = 'local' | 'ssh';

/**
 * Shell mode: where to run (this machine, or a host over SSH as ssh would reach it), the objective, ask-first or act
 * (a validator model approves each command), and the latest session as it happens. An interrupted session (the
 * browser or the host restarted) is offered for resuming. The model saved in Settings is used; the background hands
 * it to the host.
 */
export function ShellView(props: { client: BackgroundClient; hostStatus: HostStatus | undefined }) {
  const { client } = props;
  const [record, acceptRecord] = useShellRun(client);
  const [where, setWhere] = useState<Where>('local');
  const [destination, setDestination] = useState('');
  const [objective, setObjective] = useState('');
  const [mode, chooseMode] = useTaskMode(client);
  const [error, setError] = useState('');
  const [starting, setStarting] = useState(false);
  const [interrupted, setInterrupted] = useState<ShellSessionSummary | undefined>(undefined);
  const connected = props.hostStatus?.state === 'connected';
  const busy = record?.status === 'running' || record?.status === 'connecting';

  useEffect(() => {
    if (!connected) return undefined;
    let live = true;
    client.call('shell.sessions', {}).then(
      (reply) => live && setInterrupted(reply.sessions.find((s) => s.resumable)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, connected, record?.status]);

  const started = (promise: Promise<unknown>, after?: () => void): void => {
    setStarting(true);
    setError('');
    promise.then(
      () => {
        setStarting(false);
        after?.();
        client.call('shell.current', {}).then((found) => found && acceptRecord(found), () => undefined);
      },
      (failure: unknown) => {
        setStarting(false);
        setError(errorMessage(failure));
      },
    );
  };
  const submit = (): void => {
    if (starting || busy) return;
    if (!connected) {
      setError('Shell tasks run in the native host, which is not connected.');
      return;
    }
    if (where === 'ssh' && !destination.trim()) {
      setError('Name the server: user@host, user@host:port, or a Host alias from ~/.ssh/config.');
      return;
    }
    if (!objective.trim()) {
      setError('Describe the objective first.');
      return;
    }
    const target = where === 'local' ? { kind: 'local' as const } : { kind: 'ssh' as const, destination: destination.trim() };
    // The background puts the saved model (with its key) in place of `provider`: the panel never holds the key.
    started(client.call('shell.run', { objective: objective.trim(), target, mode, provider: null }), () => setObjective(''));
  };
  const resume = (sessionId: string): void => {
    if (starting || busy) return;
    started(client.call('shell.resume', { sessionId, provider: null }), () => setInterrupted(undefined));
  };

  return (
    <section class="flow" data-testid="shell-flow" aria-label="Shell">
      <HostStatusLine status={props.hostStatus} feature="Shell tasks" onRetry={() => void client.call('host.reconnect', {})} />
      {interrupted && !busy && interrupted.sessionId !== record?.sessionId ? (
        <div class="card shell-resume" data-testid="shell-interrupted">
          <p>
            An interrupted session can go on: <strong>{interrupted.objective}</strong> on {interrupted.target}.
          </p>
          <div class="button-row">
            <button type="button" class="button" data-testid="shell-resume-interrupted" onClick={() => resume(interrupted.sessionId)}>
              Resume
            </button>
          </div>
        </div>
      ) : null}
      <form
        class="composer"
        data-testid="composer-shell"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset class="shell-where">
          <legend class="composer__label">Where</legend>
          <label class="check">
            <input type="radio" name="shell-where" data-testid="shell-where-local" checked={where === 'local'} onChange={() => setWhere('local')} />
            This machine
          </label>
          <label class="check">
            <input type="radio" name="shell-where" data-testid="shell-where-ssh" checked={where === 'ssh'} onChange={() => setWhere('ssh')} />
            A server over SSH
          </label>
          {where === 'ssh' ? (
            <input
              class="composer__input"
              data-testid="shell-destination"
              aria-label="SSH destination"
              placeholder="user@host:port or an alias from ~/.ssh/config"
              value={destination}
              onInput={(event) => setDestination(event.currentTarget.value)}
            />
          ) : null}
        </fieldset>
        <ComposerText
          id="composer-shell"
          testId="shell-objective"
          label="What should Deputy reach with shell commands?"
          value={objective}
          placeholder="e.g. Find out why nginx does not start and fix its config"
          onInput={setObjective}
          onSubmit={submit}
        />
        <p class="hint">
          {busy
            ? 'Busy: stop the running session to start another.'
            : mode === 'ask'
              ? 'Ask first: you approve each command. Destructive commands always ask.'
              : 'Act: a validator model approves each command; destructive commands still ask you.'}
        </p>
        <div class="composer__row">
          <ModeSwitch mode={mode} name="shell-mode" onChange={chooseMode} />
          <button type="submit" class="button" data-testid="shell-run" disabled={starting || busy || !connected}>
            {starting ? 'Starting…' : 'Run'}
          </button>
        </div>
        <p class="form-error" role="alert" data-testid="shell-composer-error">
          {error}
        </p>
      </form>
      {record ? (
        <ShellProgress client={client} record={record} onResume={() => resume(record.sessionId)} />
      ) : (
        <p class="muted">Deputy runs one command at a time, reads its output, and keeps long ones in the background. Every command and its whole output go to a log you can search.</p>
      )}
    </section>
  );
}

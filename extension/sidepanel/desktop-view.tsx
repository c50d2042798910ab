import { useState } from 'preact/hooks';
import type { HostStatus } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { ComposerText } from '../ui/composer-text';
import { ContinueAfterCap, stoppedAtCap } from '../ui/continue-after-cap';
import { DesktopProgress } from '../ui/desktop-progress';
import { CallErrorLine, useCallError } from '../ui/call-error';
import { HostStatusLine } from '../ui/host-status-line';
import { ModeSwitch } from '../ui/mode-switch';
import { ModelNeeded } from '../ui/model-needed';
import { useDesktopRun } from '../ui/use-desktop-run';
import { useDesktopStatus } from '../ui/use-desktop-status';
import { useSavedSettings } from '../ui/use-saved-settings';
import { useTaskMode } from '../ui/use-task-mode';

/**
 * Desktop mode: whether the host can see and drive the screen (and why not), a task box with the mode switch, and the
 * latest desktop run as it happens. The run uses the model saved in Settings; the background hands it to the host.
 */
export function DesktopView(props: { client: BackgroundClient; hostStatus: HostStatus | undefined; onOpenSettings?: (() => void) | undefined }) {
  const { client } = props;
  const [availability, recheck] = useDesktopStatus(client, props.hostStatus);
  const [record, acceptRecord] = useDesktopRun(client);
  const [text, setText] = useState('');
  const [mode, chooseMode] = useTaskMode(client);
  const error = useCallError();
  const [starting, setStarting] = useState(false);

  const [saved] = useSavedSettings(client);
  const busy = record?.status === 'running';
  // The same task goes on from its run folder under the new cap; the run's view follows the new run.
  const continueTask = async (cap: number): Promise<void> => {
    if (!record) return;
    await client.call('desktop.run', { task: record.task, mode: record.mode, provider: null, dryRun: false, width: 1280, quality: 70, resumeRunDir: record.runDir, maxCostUsd: cap });
    const found = await client.call('desktop.current', {});
    if (found) acceptRecord(found);
  };
  const submit = (): void => {
    if (starting || busy) return;
    if (availability.state !== 'available') {
      error.say(availability.text);
      return;
    }
    if (!text.trim()) {
      error.say('Describe the task first.');
      return;
    }
    setStarting(true);
    error.say('');
    // The background puts the saved model (with its key) in place of `provider`: the panel never holds the key.
    client.call('desktop.run', { task: text.trim(), mode, provider: null, dryRun: false, width: 1280, quality: 70 }).then(
      () => {
        setStarting(false);
        setText('');
        client.call('desktop.current', {}).then((found) => found && acceptRecord(found), () => undefined);
      },
      (failure: unknown) => {
        setStarting(false);
        error.fail(failure);
      },
    );
  };

  return (
    <section class="flow" data-testid="desktop-flow" aria-label="Desktop">
      <ModelNeeded client={client} />
      <HostStatusLine status={props.hostStatus} feature="Desktop tasks" onRetry={() => void client.call('host.reconnect', {})} />
      <p class={`desktop-availability desktop-availability--${availability.state}`} role="status" data-testid="desktop-availability" data-state={availability.state}>
        <span class="host-status__dot" aria-hidden="true" />
        <span class="desktop-availability__text">{availability.text}</span>
        {availability.state === 'unavailable' && props.hostStatus?.state === 'connected' ? (
          <button type="button" class="link-button" data-testid="desktop-recheck" onClick={recheck}>
            Check again
          </button>
        ) : null}
      </p>
      <form
        class="composer"
        data-testid="composer-desktop"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ComposerText
          id="composer-desktop"
          testId="desktop-task-input"
          label="What should Deputy do on your desktop?"
          value={text}
          placeholder="e.g. Open the text editor and write a shopping list"
          onInput={setText}
          onSubmit={submit}
        />
        <p class="hint">{busy ? 'Busy: stop the running task to start another.' : 'Screenshots go to the model saved in Settings; the mouse and keyboard move for real.'}</p>
        <div class="composer__row">
          <ModeSwitch
            mode={mode}
            name="desktop-mode"
            onChange={chooseMode}
          />
          <button type="submit" class="button" data-testid="desktop-run" disabled={starting || busy || availability.state !== 'available'}>
            {starting ? 'Starting…' : 'Run'}
          </button>
        </div>
        <CallErrorLine error={error} testId="desktop-composer-error" onOpenSettings={props.onOpenSettings} />
      </form>
      {record ? (
        <DesktopProgress
          client={client}
          record={record}
          onChange={acceptRecord}
          afterOutcome={stoppedAtCap(record.status, record.summary) ? <ContinueAfterCap key={record.runId} savedCap={saved?.maxCostUsd ?? null} testId="desktop-continue" onContinue={continueTask} /> : null}
        />
      ) : (
        <p class="muted">Deputy looks at the screen, moves the mouse and types, one checked step at a time. Ask first shows you the plan before the first action.</p>
      )}
    </section>
  );
}

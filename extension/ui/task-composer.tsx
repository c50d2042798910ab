import { useEffect, useRef, useState } from 'preact/hooks';
import type { Flow, TaskRecord } from '../../shared/protocol';
import { AttachedFiles, type ChosenFile, readChosen, toFileInputs } from './attached-files';
import type { BackgroundClient } from './background-client';
import { CallErrorLine, useCallError } from './call-error';
import { ModeSwitch } from './mode-switch';
import { useTaskMode } from './use-task-mode';

export interface TaskComposerProps {
  client: BackgroundClient;
  tabId: number | undefined;
  flow: Flow;
  /** Shown above the box: what the task acts on. */
  label: string;
  placeholder: string;
  /** A task is already running in this tab: starting another is refused by the background anyway. */
  busy: boolean;
  /** Opens the Settings view, offered next to an error that Settings fixes (no model, a refused key). */
  onOpenSettings?: (() => void) | undefined;
  /** Text put in the box from outside (a rerun, a goal template); the user can still edit it. */
  preset?: { text: string; at: number } | undefined;
  /** For a support chat: the facts Deputy may share, sent with the start. */
  facts?: Record<string, string> | undefined;
  /** The ended task shown above: what is written here continues it (same tab, and the model keeps what it did). */
  followUp?: { taskId: string } | undefined;
  /** Kept at the bottom of the panel while a thread above scrolls, as in a chat (not over a form such as the first-run card). */
  docked?: boolean;
  /** Sets the ended task aside, so the box starts a new one. */
  onNewTask?: (() => void) | undefined;
  onStarted: (record: TaskRecord) => void;
}

/**
 * The task box, at the bottom of the panel as in a chat: Enter runs, Shift+Enter adds a line; the mode switch says
 * whether each action needs approval. Below an ended task it writes a follow-up that continues that task, unless the
 * user chooses "New task".
 */
export function TaskComposer(props: TaskComposerProps) {
  const { client, tabId } = props;
  const [text, setText] = useState('');
  const [mode, chooseMode] = useTaskMode(client);
  const error = useCallError();
  const [starting, setStarting] = useState(false);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  useEffect(() => {
    if (props.preset) setText(props.preset.text);
  }, [props.preset?.at]);

  const followUp = props.followUp;
  const submit = (): void => {
    if (starting || props.busy) return;
    if (tabId === undefined) {
      error.say('No tab to act on: open a web page first.');
      return;
    }
    if (!text.trim()) {
      error.say(followUp ? 'Write your follow-up first.' : props.flow === 'chat' ? 'Describe your goal for the chat first.' : 'Describe the task first.');
      return;
    }
    setStarting(true);
    error.say('');
    const call = followUp
      ? client.call('task.continue', { taskId: followUp.taskId, text })
      : client.call('task.start', { tabId, text, mode, flow: props.flow, files: toFileInputs(files), ...(props.facts ? { facts: props.facts } : {}) });
    call.then(
      (record) => {
        setStarting(false);
        setText('');
        setFiles([]);
        props.onStarted(record);
      },
      (failure: unknown) => {
        setStarting(false);
        error.fail(failure);
      },
    );
  };

  const id = `composer-${props.flow}`;
  const form = useRef<HTMLFormElement>(null);
  useDockedHeight(form, props.docked === true);
  return (
    <form
      ref={form}
      class={props.docked ? 'composer composer--docked' : 'composer'}
      data-testid={`composer-${props.flow}`}
      data-mode={followUp ? 'follow-up' : 'new'}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label class="composer__label" for={id}>
        {followUp ? (props.flow === 'chat' ? 'Follow up in this chat' : 'Follow up on this task') : props.label}
      </label>
      <textarea
        id={id}
        class="composer__input"
        data-testid="task-input"
        rows={3}
        value={text}
        placeholder={followUp ? (props.flow === 'chat' ? 'e.g. Also ask for free return shipping' : 'e.g. Now do the same for the next one') : props.placeholder}
        aria-describedby={`${id}-hint`}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      {/* One line either way, so the panel below does not move when a task starts or ends. */}
      <p id={`${id}-hint`} class="hint" data-testid="composer-hint">
        {props.busy
          ? 'Busy: stop the running task to start another.'
          : followUp
            ? 'Enter to send · it goes on with what the task did so far'
            : 'Enter to run · Shift+Enter for a new line'}
      </p>
      {followUp ? null : (
        <AttachedFiles
          id={`${id}-files`}
          files={files}
          onPick={(list) => {
            void readChosen(list, files).then(({ files: next, error: problem }) => {
              setFiles(next);
              error.say(problem);
            });
          }}
          onRemove={(name) => setFiles(files.filter((f) => f.name !== name))}
        />
      )}
      <div class="composer__row">
        {followUp ? (
          <button type="button" class="button button--quiet" data-testid="new-task" onClick={props.onNewTask}>
            New task
          </button>
        ) : (
          <ModeSwitch mode={mode} onChange={chooseMode} name={`${id}-mode`} />
        )}
        <button type="submit" class="button" data-testid="run-task" disabled={starting || props.busy}>
          {starting ? (followUp ? 'Sending…' : 'Starting…') : followUp ? 'Send' : 'Run'}
        </button>
      </div>
      <CallErrorLine error={error} testId="composer-error" onOpenSettings={props.onOpenSettings} />
    </form>
  );
}

/**
 * Keeps `--composer-height` on the page at the docked input's real height, so what is scrolled into view (a card
 * waiting for the user, its Approve and Reject) stops above the input instead of behind it, whatever the input's
 * height (a long label, an error line, attached files).
 */
function useDockedHeight(form: { current: HTMLFormElement | null }, docked: boolean): void {
  useEffect(() => {
    const element = form.current;
    const root = document.documentElement;
    if (!docked || !element) return;
    const write = (): void => root.style.setProperty('--composer-height', `${Math.ceil(element.getBoundingClientRect().height)}px`);
    write();
    const observer = new ResizeObserver(write);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--composer-height');
    };
  }, [docked]);
}

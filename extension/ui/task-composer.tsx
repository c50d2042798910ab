import { useEffect, useState } from 'preact/hooks';
import type { Flow, TaskRecord } from '../../shared/protocol';
import { AttachedFiles, type ChosenFile, readChosen, toFileInputs } from './attached-files';
import type { BackgroundClient } from './background-client';
import { errorMessage, fixedInSettings, isAppErrorShape } from './error-message';
import { OpenSettingsButton } from './open-settings-button';
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
  onStarted: (record: TaskRecord) => void;
}

/** The task box: Enter runs, Shift+Enter adds a line; the mode switch says whether each action needs approval. */
export function TaskComposer(props: TaskComposerProps) {
  const { client, tabId } = props;
  const [text, setText] = useState('');
  const [mode, chooseMode] = useTaskMode(client);
  const [error, setError] = useState('');
  const [settingsFix, setSettingsFix] = useState(false);
  const [starting, setStarting] = useState(false);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  useEffect(() => {
    if (props.preset) setText(props.preset.text);
  }, [props.preset?.at]);

  const submit = (): void => {
    if (starting || props.busy) return;
    if (tabId === undefined) {
      setError('No tab to act on: open a web page first.');
      return;
    }
    if (!text.trim()) {
      setError(props.flow === 'chat' ? 'Describe your goal for the chat first.' : 'Describe the task first.');
      return;
    }
    setStarting(true);
    setError('');
    setSettingsFix(false);
    client.call('task.start', { tabId, text, mode, flow: props.flow, files: toFileInputs(files), ...(props.facts ? { facts: props.facts } : {}) }).then(
      (record) => {
        setStarting(false);
        setText('');
        setFiles([]);
        props.onStarted(record);
      },
      (failure: unknown) => {
        setStarting(false);
        setError(errorMessage(failure));
        setSettingsFix(isAppErrorShape(failure) && fixedInSettings(failure));
      },
    );
  };

  const id = `composer-${props.flow}`;
  return (
    <form
      class="composer"
      data-testid={`composer-${props.flow}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label class="composer__label" for={id}>
        {props.label}
      </label>
      <textarea
        id={id}
        class="composer__input"
        data-testid="task-input"
        rows={3}
        value={text}
        placeholder={props.placeholder}
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
        {props.busy ? 'Busy: stop the running task to start another.' : 'Enter to run · Shift+Enter for a new line'}
      </p>
      <AttachedFiles
        id={`${id}-files`}
        files={files}
        onPick={(list) => {
          void readChosen(list, files).then(({ files: next, error: problem }) => {
            setFiles(next);
            setError(problem);
          });
        }}
        onRemove={(name) => setFiles(files.filter((f) => f.name !== name))}
      />
      <div class="composer__row">
        <ModeSwitch
          mode={mode}
          onChange={chooseMode}
          name={`${id}-mode`}
        />
        <button type="submit" class="button" data-testid="run-task" disabled={starting || props.busy}>
          {starting ? 'Starting…' : 'Run'}
        </button>
      </div>
      <p class="form-error" role="alert" data-testid="composer-error">
        {error}
      </p>
      {error && settingsFix && props.onOpenSettings ? <OpenSettingsButton onOpen={props.onOpenSettings} /> : null}
    </form>
  );
}

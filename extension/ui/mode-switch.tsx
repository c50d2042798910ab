import type { TaskMode } from '../../shared/protocol';

const MODES: { mode: TaskMode; label: string; hint: string }[] = [
  { mode: 'ask', label: 'Ask first', hint: 'Approve the plan and each action' },
  { mode: 'act', label: 'Act', hint: 'Routine actions run; risky ones still ask' },
];

/** Ask before acting, or act without asking: a radio group, so arrow keys move between the two. */
export function ModeSwitch(props: { mode: TaskMode; onChange: (mode: TaskMode) => void; name: string }) {
  return (
    <fieldset class="mode-switch" data-testid="mode-switch">
      <legend class="visually-hidden">Mode</legend>
      {MODES.map((option) => (
        <label key={option.mode} class="mode-switch__option" title={option.hint}>
          <input
            type="radio"
            name={props.name}
            value={option.mode}
            checked={props.mode === option.mode}
            data-testid={`mode-${option.mode}`}
            onChange={() => props.onChange(option.mode)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

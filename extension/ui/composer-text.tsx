import { submitOnEnter } from './submit-on-enter';

/** A task box's label and text area: Enter submits, Shift+Enter adds a line. */
export function ComposerText(props: { id: string; testId: string; label: string; value: string; placeholder: string; onInput: (value: string) => void; onSubmit: () => void }) {
  return (
    <>
      <label class="composer__label" for={props.id}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        class="composer__input"
        data-testid={props.testId}
        rows={3}
        value={props.value}
        placeholder={props.placeholder}
        onInput={(event) => props.onInput(event.currentTarget.value)}
        onKeyDown={submitOnEnter(props.onSubmit)}
      />
    </>
  );
}

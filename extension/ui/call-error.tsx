import { useState } from 'preact/hooks';
import { errorMessage, fixedInSettings, isAppErrorShape } from './error-message';
import { OpenSettingsButton } from './open-settings-button';

export interface CallError {
  text: string;
  /** Settings fixes it (no model, a refused key): the way there is offered beside it. */
  settingsFix: boolean;
  /** Says something in the panel's own words (a check before any call). */
  say: (text: string) => void;
  /** Says why a call failed, in the panel's own words. */
  fail: (failure: unknown) => void;
}

/** The error under a form: what the panel said or a call answered, and whether Settings fixes it. */
export function useCallError(): CallError {
  const [state, setState] = useState({ text: '', settingsFix: false });
  return {
    ...state,
    say: (text) => setState({ text, settingsFix: false }),
    fail: (failure) => setState({ text: errorMessage(failure), settingsFix: isAppErrorShape(failure) && fixedInSettings(failure) }),
  };
}

/** The error line (announced as it changes) and, when Settings fixes it, "Open Settings". */
export function CallErrorLine(props: { error: CallError; testId: string; onOpenSettings?: (() => void) | undefined }) {
  const { error } = props;
  return (
    <>
      <p class="form-error" role="alert" data-testid={props.testId}>
        {error.text}
      </p>
      {error.text && error.settingsFix && props.onOpenSettings ? <OpenSettingsButton onOpen={props.onOpenSettings} /> : null}
    </>
  );
}

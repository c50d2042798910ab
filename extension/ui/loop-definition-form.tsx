import type { ComponentChildren } from 'preact';
import type { LoopField, LoopForm, LoopFormErrors, LoopSwitch, LoopTextField } from './loop-form';

interface FieldSpec {
  field: LoopTextField;
  label: string;
  placeholder?: string;
  hint?: string;
  multiline?: boolean;
  numeric?: boolean;
}

const REQUIRED: FieldSpec[] = [
  { field: 'repo', label: 'Repository folder', placeholder: '/home/me/my-service', hint: 'A git checkout with a clean working tree and a remote to push to.' },
  { field: 'check', label: 'Check command', placeholder: 'npm test', hint: 'Run in the repository; exit code 0 means the check passes. Optional with an output template.' },
];

/** The job: how it is started and where its output arrives; in document mode, what the output is judged against. */
const TRIGGER: FieldSpec[] = [
  { field: 'trigger', label: 'Trigger', placeholder: 'node build-deck.mjs /srv/reports', hint: 'Starts the job each iteration: a command run in the repository, an http(s) URL to POST to, or the page of a web form.' },
  { field: 'triggerFields', label: 'Trigger fields', placeholder: 'client=acme', hint: 'One name=value per line: sent form-encoded with a URL, or filled in by label on a web form.', multiline: true },
];

/** Only for a web form filled in the browser. */
const WEB_FORM: FieldSpec[] = [
  { field: 'triggerSubmit', label: 'Submit button', placeholder: 'Request report', hint: "The button that sends the form; found by itself when the page has one." },
  { field: 'triggerConfirm', label: 'Confirmation text', placeholder: 'Your report is on its way', hint: 'What the page says once the form was accepted.' },
];

const OUTPUT: FieldSpec[] = [
  { field: 'output', label: 'Output', placeholder: '/srv/reports/deck-*.pptx', hint: 'Where each run leaves its document: a folder and file pattern, or an http(s) URL.' },
  { field: 'outputMail', label: 'Output by mail', placeholder: 'default', hint: 'When the job mails its output: the mail settings file, or "default" for Deputy\'s mail.json. Only mails after the trigger count.' },
  { field: 'outputTemplate', label: 'Output template', placeholder: '/srv/templates/market-map.pptx', hint: 'The reference .pptx, .xlsx or .docx the output must match; its findings are the check.' },
  { field: 'outputRules', label: 'Output rules', placeholder: 'rules.json', hint: 'Optional: a rules file from deputy compare --learn that tunes what the template teaches.' },
];

const BUDGETS: FieldSpec[] = [
  { field: 'maxIterations', label: 'Max iterations', placeholder: '10', numeric: true },
  { field: 'maxCostUsd', label: 'Cost budget ($)', placeholder: '20', numeric: true },
  { field: 'maxMinutes', label: 'Time budget (min)', placeholder: '240', numeric: true },
];

const OPTIONAL: FieldSpec[] = [
  { field: 'branch', label: 'Branch', placeholder: 'the checked-out branch', hint: 'The branch the fixes are pushed to; it must be checked out.' },
  { field: 'protectedPaths', label: 'Protected paths', placeholder: 'migrations/**', hint: 'One glob per line; the fixer may not change them.', multiline: true },
  { field: 'healthUrl', label: 'Deploy health URL', placeholder: 'https://my-service.example/health', hint: 'After each push, wait until it answers 200.' },
  { field: 'claudePath', label: 'Claude Code path', placeholder: 'claude', hint: 'The full path when the browser does not find claude on its PATH.' },
];

const fieldId = (field: LoopField): string => `loop-${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** The loop definition: repository and check, then the optional limits, branch, protected paths and deploy. */
export function LoopDefinitionForm(props: {
  form: LoopForm;
  errors: LoopFormErrors;
  disabled: boolean;
  onChange: (change: Partial<LoopForm>) => void;
  onSubmit: () => void;
  children?: ComponentChildren;
}) {
  const input = (spec: FieldSpec) => {
    const id = fieldId(spec.field);
    const common = {
      id,
      'data-testid': id,
      value: props.form[spec.field],
      placeholder: spec.placeholder,
      disabled: props.disabled,
      'aria-invalid': props.errors[spec.field] ? true : undefined,
    };
    return spec.multiline ? (
      <textarea {...common} rows={2} onInput={(e) => props.onChange({ [spec.field]: e.currentTarget.value })} />
    ) : (
      <input {...common} inputMode={spec.numeric ? 'decimal' : undefined} spellcheck={false} onInput={(e) => props.onChange({ [spec.field]: e.currentTarget.value })} />
    );
  };
  const error = (spec: FieldSpec) =>
    props.errors[spec.field] ? (
      <span key={`error-${spec.field}`} class="form-error" role="alert" data-testid={`error-${fieldId(spec.field)}`}>
        {props.errors[spec.field]}
      </span>
    ) : null;
  // The budgets sit three to a row: their errors go under the row, at full width, to stay readable.
  const field = (spec: FieldSpec, withError = true) => (
    <div class="field" key={spec.field}>
      <label class="field__label" for={fieldId(spec.field)}>
        {spec.label}
      </label>
      {input(spec)}
      {spec.hint ? <span class="hint">{spec.hint}</span> : null}
      {withError ? error(spec) : null}
    </div>
  );
  const toggle = (name: LoopSwitch, label: string, hint: string) => (
    <label class="loop-form__check" key={name}>
      <input
        type="checkbox"
        id={fieldId(name)}
        data-testid={fieldId(name)}
        checked={props.form[name]}
        disabled={props.disabled}
        onChange={(e) => props.onChange({ [name]: e.currentTarget.checked })}
      />
      <span>
        {label}
        <span class="hint">{hint}</span>
      </span>
    </label>
  );
  return (
    <form
      class="loop-form card"
      data-testid="loop-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {REQUIRED.map((spec) => field(spec))}
      <fieldset class="loop-form__group">
        <legend class="section-title">Budgets (optional)</legend>
        <div class="loop-form__budgets">{BUDGETS.map((spec) => field(spec, false))}</div>
        {BUDGETS.map(error)}
      </fieldset>
      <fieldset class="loop-form__group">
        <legend class="section-title">Job and output document (optional)</legend>
        {TRIGGER.map((spec) => field(spec))}
        {toggle('triggerPage', 'Fill the web form in the browser', "The trigger is a page: Deputy opens it in a background tab, fills the fields by their labels, sends it and checks the page's confirmation.")}
        {props.form.triggerPage ? WEB_FORM.map((spec) => field(spec)) : null}
        {toggle('triggerRetry', 'Safe to send twice', 'A request or form that failed after it was sent is tried again; otherwise only one that never reached the service is.')}
        {OUTPUT.map((spec) => field(spec))}
      </fieldset>
      <fieldset class="loop-form__group">
        <legend class="section-title">More (optional)</legend>
        {OPTIONAL.map((spec) => field(spec))}
        {toggle('research', 'Research when stuck', 'When the same failures come back, the model chosen in Settings writes a root-cause analysis for one more fixer run.')}
      </fieldset>
      {props.errors.form ? (
        <p class="form-error" role="alert" data-testid="loop-form-error">
          {props.errors.form}
        </p>
      ) : null}
      {props.children}
    </form>
  );
}

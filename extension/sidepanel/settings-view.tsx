import { cloneElement, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { HostStatus } from '../../shared/protocol';
import { applyTheme } from '../ui/apply-theme';
import type { BackgroundClient } from '../ui/background-client';
import { errorMessage, testResultText } from '../ui/error-message';
import { McpSettingsFields } from '../ui/mcp-settings-fields';
import { HostStatusLine } from '../ui/host-status-line';
import { ModeSwitch } from '../ui/mode-switch';
import { PersonalDataRows } from '../ui/personal-data-rows';
import { ModelOptionsFields } from '../ui/model-options-fields';
import { formFromSettings, providerFromForm, sameEndpoint, validateForm, type FormErrors, type ProviderChoice, type SavedSettings, type SettingsForm } from '../ui/settings-form';

const PROVIDERS: { value: ProviderChoice; label: string }[] = [
  { value: 'none', label: 'Choose a provider' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'compatible', label: 'OpenAI-compatible (base URL)' },
];

const FIX_NOTICE = 'Some settings need fixing: see the marked fields.';

/** Provider, key, limits, sites and personal data, validated field by field before anything is saved. */
export function SettingsView(props: { client: BackgroundClient; hostStatus: HostStatus | undefined; onSaved?: () => void }) {
  const { client } = props;
  const [saved, setSaved] = useState<SavedSettings | undefined>(undefined);
  const [form, setForm] = useState<SettingsForm | undefined>(undefined);
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [test, setTest] = useState<{ ok: boolean; text: string } | 'running' | undefined>(undefined);
  const [attempted, setAttempted] = useState(false);
  const [focusFirst, setFocusFirst] = useState(0);

  useEffect(() => {
    client.call('settings.get', {}).then(
      (settings) => {
        setSaved(settings);
        setForm(formFromSettings(settings));
      },
      (failure: unknown) => setNotice({ ok: false, text: errorMessage(failure) }),
    );
  }, [client]);

  // After a failed Save, the fields are checked again as the user types: a message never outlives its mistake.
  useEffect(() => {
    if (!attempted || !form || !saved) return;
    const result = validateForm(form, saved);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) setNotice((current) => (current?.ok === false && current.text === FIX_NOTICE ? undefined : current));
  }, [form]);
  // Save with problems moves the focus to the first field marked invalid, in the order of the form.
  useEffect(() => {
    if (focusFirst === 0) return;
    document.querySelector<HTMLElement>('[data-testid=settings] [aria-invalid=true]')?.focus();
  }, [focusFirst]);

  if (!form || !saved) return <p class="muted">Loading settings…</p>;
  const edit = (change: Partial<SettingsForm>): void => setForm({ ...form, ...change });

  const save = (event: Event): void => {
    event.preventDefault();
    const result = validateForm(form, saved);
    setAttempted(true);
    if (!result.ok) {
      setErrors(result.errors);
      setNotice({ ok: false, text: FIX_NOTICE });
      setFocusFirst((count) => count + 1);
      return;
    }
    setErrors({});
    client.call('settings.set', result.change).then(
      (next) => {
        setSaved(next);
        setForm(formFromSettings(next));
        applyTheme(next.theme);
        setNotice({ ok: true, text: 'Settings saved.' });
        props.onSaved?.();
      },
      (failure: unknown) => setNotice({ ok: false, text: errorMessage(failure) }),
    );
  };
  const testConnection = (): void => {
    const provider = providerFromForm(form, saved.provider);
    if (!provider) {
      setTest({ ok: false, text: 'Choose a provider and a model first.' });
      return;
    }
    setTest('running');
    client.call('settings.test', { provider }).then(
      (result) => setTest(testResultText(result)),
      (failure: unknown) => setTest({ ok: false, text: errorMessage(failure) }),
    );
  };

  // The saved key stays with the endpoint it was given for; say so when the form points elsewhere.
  const keyKept = saved.apiKeySet && sameEndpoint(providerFromForm(form, saved.provider), saved.provider);
  const keyHint = keyKept
    ? 'A key is saved and hidden. Type a new one to replace it.'
    : saved.apiKeySet
      ? 'The saved key belongs to another provider and is not sent here. Type a key if this one needs it.'
      : 'Stored only in this browser and sent only to the provider.';
  return (
    <form class="settings" data-testid="settings" onSubmit={save} noValidate>
      <fieldset class="card">
        <legend class="section-title">Model</legend>
        <Field label="Provider" id="provider">
          <select id="provider" data-testid="provider" value={form.provider} onChange={(e) => edit({ provider: e.currentTarget.value as ProviderChoice, apiKey: '' })}>
            {PROVIDERS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        {form.provider === 'compatible' ? (
          <Field label="Base URL" id="base-url" error={errors.baseUrl} hint="Ollama, LM Studio, vLLM, OpenRouter, Azure…">
            <input id="base-url" data-testid="base-url" type="url" value={form.baseUrl} placeholder="http://localhost:11434/v1" onInput={(e) => edit({ baseUrl: e.currentTarget.value })} />
          </Field>
        ) : null}
        {form.provider !== 'none' ? (
          <>
            <Field label="Model" id="model" error={errors.model}>
              <input id="model" data-testid="model" value={form.model} placeholder={form.provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini'} onInput={(e) => edit({ model: e.currentTarget.value })} />
            </Field>
            <Field
              label="API key"
              id="api-key"
              error={errors.apiKey}
              hint={keyHint}
            >
              <input id="api-key" data-testid="api-key" type="password" autocomplete="off" value={form.apiKey} placeholder={keyKept ? '•••••••• (saved)' : ''} onInput={(e) => edit({ apiKey: e.currentTarget.value })} />
            </Field>
            <ModelOptionsFields provider={form.provider} value={form.modelOptions} onChange={(change) => edit({ modelOptions: { ...form.modelOptions, ...change } })} />
            <div class="button-row">
              <button type="button" class="button button--quiet" data-testid="test-connection" disabled={test === 'running'} onClick={testConnection}>
                {test === 'running' ? 'Testing…' : 'Test connection'}
              </button>
            </div>
            <p class={`result ${test && test !== 'running' ? (test.ok ? 'result--ok' : 'result--bad') : ''}`} role="status" data-testid="test-result">
              {test && test !== 'running' ? test.text : ''}
            </p>
          </>
        ) : null}
      </fieldset>

      <fieldset class="card">
        <legend class="section-title">Tasks</legend>
        <div class="field">
          <span class="field__label">Default mode</span>
          <ModeSwitch mode={form.defaultMode} name="default-mode" onChange={(defaultMode) => edit({ defaultMode })} />
        </div>
        <label class="check">
          <input type="checkbox" data-testid="approve-each-step" checked={form.approveEachStep} onChange={(e) => edit({ approveEachStep: e.currentTarget.checked })} />
          Ask first: approve each step too (otherwise approving the plan approves its routine steps on its sites; payments, account changes, messages, deletions and new sites always ask)
        </label>
        <Field label="Step budget" id="step-budget" error={errors.stepBudget} hint="The most actions one task may take (1–200).">
          <input id="step-budget" data-testid="step-budget" inputMode="numeric" value={form.stepBudget} onInput={(e) => edit({ stepBudget: e.currentTarget.value })} />
        </Field>
        <Field label="Cost cap per task (dollars)" id="max-cost" error={errors.maxCostUsd} hint="A task stops when it has spent this much on the model, with everything saved; a follow-up continues it. Empty: no cap. Local models cost nothing.">
          <input id="max-cost" data-testid="max-cost" inputMode="decimal" value={form.maxCostUsd} placeholder="0.50" onInput={(e) => edit({ maxCostUsd: e.currentTarget.value })} />
        </Field>
        <Field
          label="Allowed sites"
          id="allowed-sites"
          error={errors.allowedSites}
          hint="Sites every task may go to without asking, one per line: example.com (with its subdomains), shop.example.com:8443 (that port). A task's own start site is always allowed."
        >
          <textarea id="allowed-sites" data-testid="allowed-sites" rows={3} value={form.allowedSites} placeholder="shop.example.com" onInput={(e) => edit({ allowedSites: e.currentTarget.value })} />
        </Field>
        <Field label="Denied sites" id="denied-sites" error={errors.deniedSites} hint="Deputy never opens or acts on these.">
          <textarea id="denied-sites" data-testid="denied-sites" rows={3} value={form.deniedSites} placeholder="bank.example.com" onInput={(e) => edit({ deniedSites: e.currentTarget.value })} />
        </Field>
        <Field
          label="Cookie banners"
          id="cookie-banners"
          hint="Answered by Deputy through the site's own consent manager before the model reads the page (no model tokens); each step list says what was chosen."
        >
          <select id="cookie-banners" data-testid="cookie-banners" value={form.cookieBanners} onChange={(e) => edit({ cookieBanners: e.currentTarget.value as SettingsForm['cookieBanners'] })}>
            <option value="reject">Reject all but essential cookies</option>
            <option value="accept">Accept all cookies</option>
            <option value="leave">Leave the banner to the task</option>
          </select>
        </Field>
        <label class="check">
          <input type="checkbox" data-testid="trusted-input" checked={form.trustedInput} onChange={(e) => edit({ trustedInput: e.currentTarget.checked })} />
          Act with real mouse and keyboard input (the browser shows that Deputy is debugging it while a task runs)
        </label>
        <label class="check">
          <input type="checkbox" data-testid="risk-classifier" checked={form.riskClassifier} onChange={(e) => edit({ riskClassifier: e.currentTarget.checked })} />
          Ask the model for a second opinion on steps the rules let through (one small extra request each; it can only add approvals, never remove one)
        </label>
        <label class="check">
          <input type="checkbox" data-testid="page-diff" checked={form.pageDiff} onChange={(e) => edit({ pageDiff: e.currentTarget.checked })} />
          After an action, send the model only what changed on the page (fewer tokens; the whole page when it is new and when the model asks)
        </label>
      </fieldset>

      <fieldset class="card">
        <legend class="section-title">Personal data</legend>
        <label class="check">
          <input type="checkbox" data-testid="redact-emails" checked={form.redactEmails} onChange={(e) => edit({ redactEmails: e.currentTarget.checked })} />
          Hide email addresses from the model
        </label>
        <label class="check">
          <input type="checkbox" data-testid="redact-phones" checked={form.redactPhones} onChange={(e) => edit({ redactPhones: e.currentTarget.checked })} />
          Hide phone numbers from the model
        </label>
        <PersonalDataRows rows={form.personalData} error={errors.personalData} onChange={(personalData) => edit({ personalData })} />
      </fieldset>

      <fieldset class="card">
        <legend class="section-title">History</legend>
        <label class="check">
          <input type="checkbox" data-testid="step-screenshots" checked={form.stepScreenshots} onChange={(e) => edit({ stepScreenshots: e.currentTarget.checked })} />
          Keep a screenshot of each step of a web task
        </label>
        <Field label="Tasks to keep" id="history-max-tasks" error={errors.historyMaxTasks} hint="Older finished tasks are deleted with their traces and screenshots.">
          <input id="history-max-tasks" data-testid="history-max-tasks" inputMode="numeric" value={form.historyMaxTasks} onInput={(e) => edit({ historyMaxTasks: e.currentTarget.value })} />
        </Field>
        <Field label="Days to keep tasks" id="history-max-days" error={errors.historyMaxDays} hint="Finished tasks older than this are deleted.">
          <input id="history-max-days" data-testid="history-max-days" inputMode="numeric" value={form.historyMaxDays} onInput={(e) => edit({ historyMaxDays: e.currentTarget.value })} />
        </Field>
      </fieldset>

      <McpSettingsFields value={form.mcp} onChange={(mcp) => edit({ mcp })} />
      <fieldset class="card">
        <legend class="section-title">Appearance</legend>
        <Field label="Theme" id="theme" hint="System follows your browser's light or dark setting.">
          <select id="theme" data-testid="theme" value={form.theme} onChange={(e) => edit({ theme: e.currentTarget.value as SettingsForm['theme'] })}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </Field>
      </fieldset>

      <section class="card" aria-labelledby="host-title">
        <h2 id="host-title" class="section-title">Desktop helper (native host)</h2>
        <p class="hint">Needed only for the Developer tools (Fix loop, Desktop, Shell). Web tasks and support chats run without it.</p>
        <HostStatusLine status={props.hostStatus} feature="These tools" onRetry={() => void client.call('host.reconnect', {})} />
      </section>

      <div class="settings__save">
        <button type="submit" class="button" data-testid="save-settings">
          Save settings
        </button>
        <p class={`result ${notice ? (notice.ok ? 'result--ok' : 'result--bad') : ''}`} role="status" data-testid="settings-notice">
          {notice?.text ?? ''}
        </p>
      </div>
    </form>
  );
}

/**
 * A labelled control with its hint and its error. The control is marked invalid while the error shows, and names the
 * error and the hint as its description, so a screen reader reads them with the field.
 */
function Field(props: { label: string; id: string; error?: string | undefined; hint?: string; children: VNode }) {
  const described = [props.error ? `${props.id}-error` : '', props.hint ? `${props.id}-hint` : ''].filter(Boolean).join(' ');
  const control = cloneElement(props.children, { 'aria-invalid': props.error ? 'true' : undefined, 'aria-describedby': described || undefined });
  return (
    <div class="field">
      <label class="field__label" for={props.id}>
        {props.label}
      </label>
      {control}
      {props.hint ? (
        <span class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span class="form-error" id={`${props.id}-error`} data-testid={`error-${props.id}`}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

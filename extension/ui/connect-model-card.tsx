import { useState } from 'preact/hooks';
import type { BackgroundClient } from './background-client';
import { errorMessage, onConnectCard, testResultText } from './error-message';
import { MODEL_PRESETS, type ModelPreset } from './model-presets';
import { formFromSettings, providerFromForm, validateForm, type FormErrors, type SavedSettings, type SettingsForm } from './settings-form';

/**
 * The first-run card: connect a model without leaving the panel. Pick a provider (its address and a model are filled
 * in), paste a key where one is needed, test it, and save. Each field says what is wrong next to it, and Save moves
 * the focus to the first problem.
 */
export function ConnectModelCard(props: { client: BackgroundClient; saved: SavedSettings; onSaved: (settings: SavedSettings) => void }) {
  const { client, saved } = props;
  const [preset, setPreset] = useState<ModelPreset>(MODEL_PRESETS[0] as ModelPreset);
  const [baseUrl, setBaseUrl] = useState(preset.baseUrl);
  const [model, setModel] = useState(preset.model);
  const [apiKey, setApiKey] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | 'testing' | 'saving' | undefined>(undefined);

  const choose = (next: ModelPreset): void => {
    setPreset(next);
    setBaseUrl(next.baseUrl);
    setModel(next.model);
    setApiKey('');
    setErrors({});
    setResult(undefined);
  };
  const form = (): SettingsForm => ({ ...formFromSettings(saved), provider: preset.choice, compatiblePreset: preset.compatiblePreset, baseUrl, model, apiKey });
  const checked = (): ReturnType<typeof validateForm> => {
    const outcome = validateForm(form(), saved);
    const found: FormErrors = outcome.ok ? {} : outcome.errors;
    const fieldErrors: FormErrors = {
      ...(found.baseUrl ? { baseUrl: found.baseUrl } : {}),
      ...(found.model ? { model: found.model } : {}),
      ...(found.apiKey ? { apiKey: `Paste your ${preset.label.replace(/ \(.*$/, '')} API key. ${preset.keyHelp}` } : {}),
    };
    setErrors(fieldErrors);
    const first = (['baseUrl', 'model', 'apiKey'] as const).find((field) => fieldErrors[field]);
    if (first) document.getElementById(`connect-${first}`)?.focus();
    return Object.keys(fieldErrors).length > 0 ? { ok: false, errors: fieldErrors } : outcome;
  };

  const test = (): void => {
    if (!checked().ok) return;
    const provider = providerFromForm(form(), saved.provider);
    if (!provider) return;
    setResult('testing');
    client.call('settings.test', { provider }).then(
      (answer) => setResult(onConnectCard(testResultText(answer))),
      (failure: unknown) => setResult(onConnectCard({ ok: false, text: errorMessage(failure) })),
    );
  };
  const save = (event: Event): void => {
    event.preventDefault();
    const outcome = checked();
    if (!outcome.ok || !outcome.change.provider) return;
    setResult('saving');
    client.call('settings.set', { provider: outcome.change.provider }).then(props.onSaved, (failure: unknown) => setResult(onConnectCard({ ok: false, text: errorMessage(failure) })));
  };
  // Edits after a check re-check the field as the user types, so a message never outlives its mistake.
  const retype = (field: keyof FormErrors, apply: () => void): void => {
    apply();
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  const busy = result === 'testing' || result === 'saving';
  return (
    <form class="card onboarding" data-testid="connect-model" aria-labelledby="connect-title" onSubmit={save} noValidate>
      <h2 id="connect-title" class="onboarding__title">
        Connect a model to start
      </h2>
      <p class="muted">Deputy thinks with a language model you choose. Your key stays in this browser and goes only to that provider.</p>
      <fieldset class="onboarding__presets">
        <legend class="field__label">Provider</legend>
        {MODEL_PRESETS.map((option) => (
          <label key={option.id} class="check">
            <input type="radio" name="connect-preset" value={option.id} data-testid={`connect-preset-${option.id}`} checked={option.id === preset.id} onChange={() => choose(option)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      {preset.choice === 'compatible' ? (
        <ConnectField id="baseUrl" label="Server address (base URL)" error={errors.baseUrl}>
          <input id="connect-baseUrl" data-testid="connect-base-url" type="url" value={baseUrl} placeholder="http://localhost:1234/v1" aria-invalid={errors.baseUrl ? true : undefined} aria-describedby={errors.baseUrl ? 'connect-baseUrl-error' : undefined} onInput={(e) => retype('baseUrl', () => setBaseUrl(e.currentTarget.value))} />
        </ConnectField>
      ) : null}
      <ConnectField id="model" label="Model" error={errors.model}>
        <input id="connect-model" data-testid="connect-model-name" value={model} aria-invalid={errors.model ? true : undefined} aria-describedby={errors.model ? 'connect-model-error' : undefined} onInput={(e) => retype('model', () => setModel(e.currentTarget.value))} />
      </ConnectField>
      <ConnectField id="apiKey" label={preset.needsKey ? 'API key' : 'API key (if the server needs one)'} error={errors.apiKey} hint={preset.keyHelp}>
        <input id="connect-apiKey" data-testid="connect-api-key" type="password" autocomplete="off" value={apiKey} aria-invalid={errors.apiKey ? true : undefined} aria-describedby={errors.apiKey ? 'connect-apiKey-error connect-apiKey-hint' : 'connect-apiKey-hint'} onInput={(e) => retype('apiKey', () => setApiKey(e.currentTarget.value))} />
      </ConnectField>
      <div class="button-row">
        <button type="submit" class="button" data-testid="connect-save" disabled={busy}>
          {result === 'saving' ? 'Saving…' : 'Save and start'}
        </button>
        <button type="button" class="button button--quiet" data-testid="connect-test" disabled={busy} onClick={test}>
          {result === 'testing' ? 'Testing…' : 'Test'}
        </button>
      </div>
      <p class={`result ${typeof result === 'object' ? (result.ok ? 'result--ok' : 'result--bad') : ''}`} role="status" data-testid="connect-result">
        {typeof result === 'object' ? result.text : ''}
      </p>
    </form>
  );
}

function ConnectField(props: { id: string; label: string; error: string | undefined; hint?: string; children: preact.ComponentChildren }) {
  return (
    <div class="field">
      <label class="field__label" for={`connect-${props.id}`}>
        {props.label}
      </label>
      {props.children}
      {props.hint ? (
        <p class="hint" id={`connect-${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="form-error" id={`connect-${props.id}-error`} data-testid={`connect-${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

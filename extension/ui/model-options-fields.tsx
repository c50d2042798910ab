import type { ModelOptions, ProviderChoice } from './settings-form';

const EFFORTS: { value: ModelOptions['reasoningEffort']; label: string }[] = [
  { value: '', label: "The model's default" },
  { value: 'low', label: 'Low (faster, cheaper)' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High (slower, more thorough)' },
];

/**
 * The model's options beyond its name, folded away because most users never need them: the OpenAI API to use, tool
 * calls as JSON for models without tool calling, screenshots for models that read images, and reasoning effort.
 */
export function ModelOptionsFields(props: { provider: ProviderChoice; value: ModelOptions; onChange: (change: Partial<ModelOptions>) => void }) {
  const { value, onChange } = props;
  const openAiApis = props.provider !== 'anthropic';
  return (
    <details class="model-options" data-testid="model-options">
      <summary>Model options</summary>
      {openAiApis ? (
        <div class="field">
          <label class="field__label" for="openai-api">
            API
          </label>
          <select id="openai-api" data-testid="openai-api" value={value.openaiApi} onChange={(e) => onChange({ openaiApi: e.currentTarget.value as ModelOptions['openaiApi'] })}>
            <option value="chat">Chat completions (any server)</option>
            <option value="responses">Responses API (OpenAI)</option>
          </select>
        </div>
      ) : null}
      <div class="field">
        <label class="field__label" for="reasoning-effort">
          Reasoning effort
        </label>
        <select
          id="reasoning-effort"
          data-testid="reasoning-effort"
          aria-describedby="reasoning-effort-hint"
          value={value.reasoningEffort}
          onChange={(e) => onChange({ reasoningEffort: e.currentTarget.value as ModelOptions['reasoningEffort'] })}
        >
          {EFFORTS.map((effort) => (
            <option key={effort.value} value={effort.value}>
              {effort.label}
            </option>
          ))}
        </select>
        <span class="hint" id="reasoning-effort-hint">
          For reasoning models only; others refuse it.
        </span>
      </div>
      <label class="check">
        <input type="checkbox" data-testid="json-tools" checked={value.toolCalling === 'json'} onChange={(e) => onChange({ toolCalling: e.currentTarget.checked ? 'json' : 'native' })} />
        The model has no tool calling: describe the tools in the prompt and read its answers as JSON
      </label>
      <label class="check">
        <input type="checkbox" data-testid="model-screenshots" checked={value.screenshots} onChange={(e) => onChange({ screenshots: e.currentTarget.checked })} />
        Send a screenshot with each page (the model must read images; more tokens)
      </label>
    </details>
  );
}

import { describe, expect, it } from 'vitest';
import { providerFromFlags } from '../../../../native-host/cli/model-flags';

// deputy desktop, deputy shell and the loop's research pick their model from the same flags as npm run task.
describe('the model from the CLI flags', () => {
  const compatible = { baseUrl: 'https://openrouter.example/api/v1', model: 'some/model' };
  const vision = { vision: true };

  it('sends a compatible server (--base-url) DEPUTY_API_KEY, else OPENAI_API_KEY, never silently none', () => {
    expect(providerFromFlags(compatible, { OPENAI_API_KEY: 'sk-o' }, vision)).toMatchObject({ preset: 'custom', apiKey: 'sk-o' });
    expect(providerFromFlags(compatible, { OPENAI_API_KEY: 'sk-o', DEPUTY_API_KEY: 'd' }, vision)).toMatchObject({ apiKey: 'd' });
    expect(providerFromFlags({ ...compatible, provider: 'openai-compatible' }, { OPENAI_API_KEY: 'sk-o' }, vision)).toMatchObject({ apiKey: 'sk-o' });
    // A local server without any key set works keyless.
    expect(providerFromFlags({ baseUrl: 'http://localhost:11434/v1', model: 'qwen3' }, {}, vision)).not.toHaveProperty('apiKey');
  });

  it('keeps each provider to its own key', () => {
    expect(providerFromFlags({}, { OPENAI_API_KEY: 'sk-o' }, vision)).toMatchObject({ preset: 'openai', apiKey: 'sk-o' });
    expect(providerFromFlags({}, { ANTHROPIC_API_KEY: 'sk-a' }, vision)).toMatchObject({ preset: 'anthropic', apiKey: 'sk-a' });
    expect(() => providerFromFlags({ provider: 'anthropic' }, { OPENAI_API_KEY: 'sk-o' }, vision)).toThrow(/No API key for anthropic: set ANTHROPIC_API_KEY/);
  });
});

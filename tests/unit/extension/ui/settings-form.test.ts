import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/protocol';
import { formFromSettings, providerFromForm, validateForm, type SavedSettings } from '../../../../extension/ui/settings-form';

const OPTIONS = { stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 120_000, maxRetries: 4 } as const;
const savedOpenAi: SavedSettings = { ...DEFAULT_SETTINGS, provider: { ...OPTIONS, preset: 'openai', model: 'gpt-4o-mini', apiKey: '' }, apiKeySet: true };
const empty: SavedSettings = { ...DEFAULT_SETTINGS, apiKeySet: false };

describe('the settings form', () => {
  it('never holds the stored key, and keeps it when only other fields change', () => {
    const form = formFromSettings(savedOpenAi);
    expect(form.apiKey).toBe('');
    const result = validateForm({ ...form, stepBudget: '50' }, savedOpenAi);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // No apiKey at all: the background keeps the one it has.
    expect(result.change.provider).not.toHaveProperty('apiKey');
    expect(result.change.stepBudget).toBe(50);
  });

  it('sends a typed key, trimmed', () => {
    const result = validateForm({ ...formFromSettings(savedOpenAi), apiKey: '  sk-new  ' }, savedOpenAi);
    expect(result.ok && result.change.provider?.apiKey).toBe('sk-new');
  });

  it('drops the stored key when the endpoint changes, so another server never receives it', () => {
    const form = { ...formFromSettings(savedOpenAi), provider: 'compatible' as const, baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' };
    expect(providerFromForm(form, savedOpenAi.provider)).toMatchObject({ preset: 'custom', baseUrl: 'http://localhost:11434/v1', apiKey: '' });
    const anthropic = validateForm({ ...formFromSettings(savedOpenAi), provider: 'anthropic', model: 'claude-haiku-4-5' }, savedOpenAi);
    expect(anthropic).toEqual({ ok: false, errors: { apiKey: 'Enter your Anthropic API key.' } });
  });

  it('maps a compatible server back to its preset while its address is the preset one', () => {
    const saved: SavedSettings = { ...empty, provider: { ...OPTIONS, preset: 'ollama', model: 'llama3.2' } };
    const form = formFromSettings(saved);
    expect(form).toMatchObject({ provider: 'compatible', baseUrl: 'http://localhost:11434/v1', compatiblePreset: 'ollama' });
    expect(providerFromForm(form, saved.provider)?.preset).toBe('ollama');
    expect(providerFromForm({ ...form, baseUrl: 'http://10.0.0.2:11434/v1' }, saved.provider)?.preset).toBe('custom');
  });

  it('says what to fix for each bad field', () => {
    const form = { ...formFromSettings(empty), provider: 'compatible' as const, baseUrl: 'localhost:1234', model: ' ', stepBudget: '0', allowedSites: 'shop.test\nnot a site', deniedSites: 'shop.test', personalData: [{ name: 'Full Name', value: 'Ada' }] };
    const result = validateForm(form, empty);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.model).toMatch(/Enter a model name/);
    expect(result.errors.baseUrl).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(result.errors.stepBudget).toBe('The step budget is a whole number from 1 to 200.');
    expect(result.errors.allowedSites).toMatch(/Not a site: not a site/);
    expect(result.errors.personalData).toMatch(/"Full Name" cannot be a name/);
    expect(result.errors.apiKey).toBeUndefined();
  });

  it('rejects a site both allowed and denied, a repeated name and a name without a value', () => {
    const base = formFromSettings(empty);
    const both = validateForm({ ...base, allowedSites: 'https://shop.test/cart', deniedSites: 'shop.test' }, empty);
    expect(!both.ok && both.errors.deniedSites).toBe('shop.test is both allowed and denied: remove it from one list.');
    const twice = validateForm({ ...base, personalData: [{ name: 'email', value: 'a' }, { name: 'email', value: 'b' }] }, empty);
    expect(!twice.ok && twice.errors.personalData).toBe('"email" is there twice: each name once.');
    const blank = validateForm({ ...base, personalData: [{ name: 'phone', value: '' }] }, empty);
    expect(!blank.ok && blank.errors.personalData).toBe('Give a value for "phone", or remove the row.');
  });

  it('turns a valid form into a change: sites cleaned, empty rows dropped, no provider when none is chosen', () => {
    const result = validateForm(
      { ...formFromSettings(empty), allowedSites: 'https://Shop.test/path, *.example.com\n\n', personalData: [{ name: 'full_name', value: 'Ada Lovelace' }, { name: '', value: '' }], redactEmails: true },
      empty,
    );
    expect(result).toEqual({
      ok: true,
      change: {
        provider: null,
        defaultMode: 'ask',
        approveEachStep: false,
        maxCostUsd: null,
        stepBudget: 30,
        allowedSites: ['Shop.test', '*.example.com'],
        deniedSites: [],
        redactEmails: true,
        redactPhones: false,
        personalData: { full_name: 'Ada Lovelace' },
        stepScreenshots: true,
        screenshots: false,
        trustedInput: true,
        riskClassifier: false,
        // After an action the model gets what changed on the page, until the user asks for whole pages.
        pageView: 'diff',
        historyMaxTasks: 200,
        historyMaxDays: 30,
        // Connected agents stay off until the user turns them on; shell and desktop each need their own yes.
        mcp: { enabled: false, mode: 'act', shell: false, desktop: false },
        theme: 'system',
        // Cookie banners are answered for the user, rejecting all but essential cookies, until they choose otherwise.
        cookieBanners: 'reject',
      },
    });
    const synthetic = validateForm({ ...formFromSettings(empty), trustedInput: false }, empty);
    expect(synthetic.ok && synthetic.change.trustedInput).toBe(false);
    // The page view after an action: what changed by default (the box ticked), the whole page when it is cleared, and back.
    expect(formFromSettings(empty).pageDiff).toBe(true);
    const full = validateForm({ ...formFromSettings(empty), pageDiff: false }, empty);
    expect(full.ok && full.change.pageView).toBe('full');
    expect(formFromSettings({ ...empty, pageView: 'full' }).pageDiff).toBe(false);
    const diff = validateForm({ ...formFromSettings({ ...empty, pageView: 'full' }), pageDiff: true }, empty);
    expect(diff.ok && diff.change.pageView).toBe('diff');
  });

  it("saves the model's options: the Responses API, JSON tool calls, screenshots and reasoning effort", () => {
    const form = formFromSettings(savedOpenAi);
    expect(form.modelOptions).toEqual({ openaiApi: 'chat', toolCalling: 'native', screenshots: false, reasoningEffort: '' });
    const modelOptions = { openaiApi: 'responses', toolCalling: 'json', screenshots: true, reasoningEffort: 'high' } as const;
    const result = validateForm({ ...form, modelOptions }, savedOpenAi);
    expect(result.ok && result.change.provider).toMatchObject({ preset: 'openai', openaiApi: 'responses', toolCalling: 'json', vision: true, reasoningEffort: 'high' });
    // Screenshots reach the model only with both: the task setting and the provider's vision flag.
    expect(result.ok && result.change.screenshots).toBe(true);
    // The saved options come back into the form, and Anthropic never gets the OpenAI-only Responses API.
    const saved = { ...savedOpenAi, ...(result.ok ? result.change : {}) } as SavedSettings;
    expect(formFromSettings(saved).modelOptions).toEqual(modelOptions);
    const anthropic = validateForm({ ...formFromSettings(saved), provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'k' }, saved);
    expect(anthropic.ok && anthropic.change.provider).toMatchObject({ preset: 'anthropic', openaiApi: 'chat', reasoningEffort: 'high' });
    // Back to the model's default effort: the setting is left out, not sent.
    const plain = validateForm({ ...formFromSettings(saved), modelOptions: { ...modelOptions, reasoningEffort: '' } }, saved);
    expect(plain.ok && plain.change.provider).not.toHaveProperty('reasoningEffort');
  });

  it('keeps history limits as whole numbers in range, and says which is wrong', () => {
    const form = formFromSettings(empty);
    const fixed = validateForm({ ...form, historyMaxTasks: ' 50 ', historyMaxDays: '7', stepScreenshots: false }, empty);
    expect(fixed.ok && fixed.change).toMatchObject({ historyMaxTasks: 50, historyMaxDays: 7, stepScreenshots: false });
    const wrong = validateForm({ ...form, historyMaxTasks: '0', historyMaxDays: 'a month' }, empty);
    expect(!wrong.ok && wrong.errors).toEqual({
      historyMaxTasks: 'Keep a whole number of tasks, from 1 to 10000.',
      historyMaxDays: 'Keep tasks for a whole number of days, from 1 to 3650.',
    });
  });
});

import { PROVIDER_PRESETS, type PresetName } from '../../shared/agent/providers/provider-presets';
import type { Settings, TaskMode } from '../../shared/protocol';

type ProviderSettings = NonNullable<Settings['provider']>;

/** The provider options the form does not show: the schema's defaults, or what was saved. */
const PROVIDER_DEFAULTS = { stream: true, openaiApi: 'chat', toolCalling: 'native', vision: false, timeoutMs: 120_000, maxRetries: 4 } as const;

export type ProviderChoice = 'none' | 'openai' | 'anthropic' | 'compatible';

/** The model's options beyond its name: which OpenAI API, how it calls tools, screenshots, reasoning effort. */
export interface ModelOptions {
  /** OpenAI and compatible servers only; Anthropic always uses its Messages API. */
  openaiApi: 'chat' | 'responses';
  toolCalling: 'native' | 'json';
  /** Send a screenshot with each page: the model must read images (the provider's vision flag and the task setting). */
  screenshots: boolean;
  /** '' leaves the model's own default. */
  reasoningEffort: '' | 'low' | 'medium' | 'high';
}

/** The settings as the form edits them: text where the user types, one site per line. */
export interface SettingsForm {
  provider: ProviderChoice;
  /** The preset a compatible server was saved under (ollama, lmstudio, ...), kept while its address is unchanged. */
  compatiblePreset: PresetName;
  model: string;
  baseUrl: string;
  /** Only what the user typed: the stored key is never sent to the page. */
  apiKey: string;
  modelOptions: ModelOptions;
  defaultMode: TaskMode;
  approveEachStep: boolean;
  stepBudget: string;
  /** Dollars per task, empty for no cap. */
  maxCostUsd: string;
  allowedSites: string;
  deniedSites: string;
  redactEmails: boolean;
  redactPhones: boolean;
  personalData: { name: string; value: string }[];
  stepScreenshots: boolean;
  trustedInput: boolean;
  riskClassifier: boolean;
  /** After an action, send what changed on the page (the `diff` page view) instead of the whole page. */
  pageDiff: boolean;
  historyMaxTasks: string;
  historyMaxDays: string;
  /** Connected agents (MCP): saved as they are, nothing to validate. */
  mcp: Settings['mcp'];
  theme: Settings['theme'];
  cookieBanners: Settings['cookieBanners'];
}

export type FormErrors = Partial<
  Record<'model' | 'baseUrl' | 'apiKey' | 'stepBudget' | 'maxCostUsd' | 'allowedSites' | 'deniedSites' | 'personalData' | 'historyMaxTasks' | 'historyMaxDays', string>
>;

export type SavedSettings = Settings & { apiKeySet: boolean };

function choiceOf(preset: PresetName | undefined): ProviderChoice {
  if (preset === undefined) return 'none';
  return preset === 'openai' || preset === 'anthropic' ? preset : 'compatible';
}

export function formFromSettings(settings: SavedSettings): SettingsForm {
  const provider = settings.provider;
  const preset = provider?.preset;
  return {
    provider: choiceOf(preset),
    compatiblePreset: preset && choiceOf(preset) === 'compatible' ? preset : 'custom',
    model: provider?.model ?? '',
    baseUrl: provider?.baseUrl ?? (preset && choiceOf(preset) === 'compatible' ? (PROVIDER_PRESETS[preset].baseUrl ?? '') : ''),
    apiKey: '',
    modelOptions: {
      openaiApi: provider?.openaiApi ?? 'chat',
      toolCalling: provider?.toolCalling ?? 'native',
      screenshots: settings.screenshots && provider?.vision === true,
      reasoningEffort: provider?.reasoningEffort ?? '',
    },
    defaultMode: settings.defaultMode,
    approveEachStep: settings.approveEachStep,
    maxCostUsd: settings.maxCostUsd === null ? '' : String(settings.maxCostUsd),
    stepBudget: String(settings.stepBudget),
    allowedSites: settings.allowedSites.join('\n'),
    deniedSites: settings.deniedSites.join('\n'),
    redactEmails: settings.redactEmails,
    redactPhones: settings.redactPhones,
    personalData: Object.entries(settings.personalData).map(([name, value]) => ({ name, value })),
    stepScreenshots: settings.stepScreenshots,
    trustedInput: settings.trustedInput,
    riskClassifier: settings.riskClassifier,
    pageDiff: settings.pageView === 'diff',
    historyMaxTasks: String(settings.historyMaxTasks),
    historyMaxDays: String(settings.historyMaxDays),
    mcp: settings.mcp,
    theme: settings.theme,
    cookieBanners: settings.cookieBanners,
  };
}

/** A whole number typed in a field, within bounds, or null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= min && n <= max ? n : null;
}

/** The provider the form describes, without a key unless one was typed. */
export function providerFromForm(form: SettingsForm, saved: ProviderSettings | null): ProviderSettings | null {
  if (form.provider === 'none') return null;
  const model = form.model.trim();
  const typedKey = form.apiKey.trim();
  let next: ProviderSettings;
  if (form.provider === 'compatible') {
    const baseUrl = form.baseUrl.trim();
    const preset = PROVIDER_PRESETS[form.compatiblePreset].baseUrl === baseUrl ? form.compatiblePreset : 'custom';
    next = { ...keepOptions(saved), preset, model, baseUrl };
  } else {
    next = { ...keepOptions(saved), preset: form.provider, model };
  }
  next = withModelOptions(next, form.modelOptions);
  if (typedKey) return { ...next, apiKey: typedKey };
  // A stored key stays with the endpoint it was given for: sent to another server, it would leak.
  return sameEndpoint(next, saved) ? next : { ...next, apiKey: '' };
}

function keepOptions(saved: ProviderSettings | null): Omit<ProviderSettings, 'preset' | 'model'> {
  if (!saved) return { ...PROVIDER_DEFAULTS };
  const { stream, timeoutMs, maxRetries, maxOutputTokens } = saved;
  // The form's model options replace the saved ones (withModelOptions).
  return { ...PROVIDER_DEFAULTS, stream, timeoutMs, maxRetries, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) };
}

function withModelOptions(provider: ProviderSettings, options: ModelOptions): ProviderSettings {
  return {
    ...provider,
    openaiApi: PROVIDER_PRESETS[provider.preset].api === 'anthropic' ? 'chat' : options.openaiApi,
    toolCalling: options.toolCalling,
    vision: options.screenshots,
    ...(options.reasoningEffort === '' ? {} : { reasoningEffort: options.reasoningEffort }),
  };
}

export function sameEndpoint(a: ProviderSettings | null, b: ProviderSettings | null): boolean {
  if (!a || !b) return false;
  const url = (p: ProviderSettings): string | null => p.baseUrl ?? PROVIDER_PRESETS[p.preset].baseUrl;
  return PROVIDER_PRESETS[a.preset].api === PROVIDER_PRESETS[b.preset].api && url(a) === url(b);
}

const SITE = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d+)?$/i;
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

function siteList(text: string): { sites: string[]; bad: string[] } {
  const sites = text.split(/[\n,]/).map((s) => s.trim().replace(/^https?:\/\//i, '').replace(/\/.*$/, '')).filter(Boolean);
  return { sites: [...new Set(sites)], bad: sites.filter((s) => !SITE.test(s)) };
}

/** Checks the form and turns it into a settings change, or says what to fix, field by field. */
export function validateForm(form: SettingsForm, saved: SavedSettings): { ok: true; change: Partial<Settings> } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  const provider = providerFromForm(form, saved.provider);
  if (provider) {
    if (!provider.model) errors.model = `Enter a model name, e.g. ${form.provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini'}.`;
    if (form.provider === 'compatible') {
      if (!form.baseUrl.trim()) errors.baseUrl = "Enter the server's base URL, e.g. http://localhost:11434/v1 for Ollama.";
      else if (!/^https?:\/\/[^\s/]+/i.test(form.baseUrl.trim())) errors.baseUrl = 'The base URL must start with http:// or https://, e.g. http://localhost:1234/v1.';
    }
    const keyKept = provider.apiKey === undefined && saved.apiKeySet;
    if (PROVIDER_PRESETS[provider.preset].needsKey && !provider.apiKey && !keyKept) {
      errors.apiKey = `Enter your ${form.provider === 'anthropic' ? 'Anthropic' : 'OpenAI'} API key.`;
    }
  }
  const budget = Number(form.stepBudget);
  if (!/^\d+$/.test(form.stepBudget.trim()) || budget < 1 || budget > 200) errors.stepBudget = 'The step budget is a whole number from 1 to 200.';
  const capText = form.maxCostUsd.trim().replace(/^\$/, '');
  const cap = capText === '' ? null : Number(capText);
  if (cap !== null && (!Number.isFinite(cap) || cap <= 0 || cap > 1000)) errors.maxCostUsd = 'The cost cap is an amount in dollars above 0 and up to 1000 (for example 0.50), or empty for none.';
  const maxTasks = wholeNumber(form.historyMaxTasks, 1, 10_000);
  if (maxTasks === null) errors.historyMaxTasks = 'Keep a whole number of tasks, from 1 to 10000.';
  const maxDays = wholeNumber(form.historyMaxDays, 1, 3650);
  if (maxDays === null) errors.historyMaxDays = 'Keep tasks for a whole number of days, from 1 to 3650.';
  const allowed = siteList(form.allowedSites);
  const denied = siteList(form.deniedSites);
  if (allowed.bad.length > 0) errors.allowedSites = `Not a site: ${allowed.bad.join(', ')}. Write one per line, like example.com or *.example.com.`;
  if (denied.bad.length > 0) errors.deniedSites = `Not a site: ${denied.bad.join(', ')}. Write one per line, like example.com or *.example.com.`;
  const both = allowed.sites.filter((s) => denied.sites.includes(s));
  if (both.length > 0 && !errors.deniedSites) errors.deniedSites = `${both.join(', ')} is both allowed and denied: remove it from one list.`;
  const personalData: Record<string, string> = {};
  for (const row of form.personalData) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    if (!NAME.test(name)) {
      errors.personalData = `"${name}" cannot be a name: use lowercase letters, digits and _, starting with a letter (e.g. full_name).`;
      break;
    }
    if (name in personalData) {
      errors.personalData = `"${name}" is there twice: each name once.`;
      break;
    }
    if (!row.value) {
      errors.personalData = `Give a value for "${name}", or remove the row.`;
      break;
    }
    personalData[name] = row.value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    change: {
      provider,
      defaultMode: form.defaultMode,
      approveEachStep: form.approveEachStep,
      maxCostUsd: cap,
      stepBudget: budget,
      allowedSites: allowed.sites,
      deniedSites: denied.sites,
      redactEmails: form.redactEmails,
      redactPhones: form.redactPhones,
      personalData,
      stepScreenshots: form.stepScreenshots,
      screenshots: provider !== null && form.modelOptions.screenshots,
      trustedInput: form.trustedInput,
      riskClassifier: form.riskClassifier,
      pageView: form.pageDiff ? 'diff' : 'full',
      historyMaxTasks: maxTasks ?? 200,
      historyMaxDays: maxDays ?? 30,
      mcp: form.mcp,
      theme: form.theme,
      cookieBanners: form.cookieBanners,
    },
  };
}

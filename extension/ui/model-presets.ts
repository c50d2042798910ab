import type { PresetName } from '../../shared/agent/providers/provider-presets';
import type { ProviderChoice } from './settings-form';

/** A way to connect a model, as a new user picks it: a name they know, and what to fill in for them. */
export interface ModelPreset {
  id: string;
  label: string;
  choice: Exclude<ProviderChoice, 'none'>;
  compatiblePreset: PresetName;
  /** The address of the server; empty when the user must give it. */
  baseUrl: string;
  model: string;
  needsKey: boolean;
  /** Where to get a key, said in words. */
  keyHelp: string;
}

export const MODEL_PRESETS: readonly ModelPreset[] = [
  { id: 'openai', label: 'OpenAI', choice: 'openai', compatiblePreset: 'custom', baseUrl: '', model: 'gpt-4o-mini', needsKey: true, keyHelp: 'Create a key at platform.openai.com → API keys.' },
  { id: 'anthropic', label: 'Anthropic (Claude)', choice: 'anthropic', compatiblePreset: 'custom', baseUrl: '', model: 'claude-sonnet-4-5', needsKey: true, keyHelp: 'Create a key at console.anthropic.com → API keys.' },
  { id: 'openrouter', label: 'OpenRouter (many models, one key)', choice: 'compatible', compatiblePreset: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4o-mini', needsKey: true, keyHelp: 'Create a key at openrouter.ai → Keys.' },
  { id: 'ollama', label: 'Ollama on this computer (free, no key)', choice: 'compatible', compatiblePreset: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', needsKey: false, keyHelp: 'Start Ollama and pull a model with tool support first (ollama pull llama3.1).' },
  { id: 'custom', label: 'Another OpenAI-compatible server', choice: 'compatible', compatiblePreset: 'custom', baseUrl: '', model: '', needsKey: false, keyHelp: 'LM Studio, vLLM, Azure, a company gateway…: its base URL ends in /v1. Give a key if it needs one.' },
];

/**
 * A few tasks to try on the page the user is on, so the first one is a click away: reading tasks that work anywhere,
 * and one fitting the kind of page (a shop, a form) when its address says what it is.
 */
export function exampleTasks(url: string | undefined): string[] {
  const where = (url ?? '').toLowerCase();
  const examples = ['Summarize this page in three bullet points'];
  if (/shop|store|cart|product|buy|price/.test(where)) examples.push('Find the cheapest product here and add it to the cart');
  else if (/form|contact|signup|sign-up|register|apply/.test(where)) examples.push('Fill in this form with my details, but do not submit it');
  else examples.push('Find the contact email or support page of this site');
  examples.push('List the links on this page that lead to pricing or plans');
  return examples;
}

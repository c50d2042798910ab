/**
 * The sentence to show for a failed call, in the panel's own words. Errors cross the channel as `{code, message}`
 * data, and many messages are shared with the command line, where they name presets, environment variables and
 * flags: those parts are rewritten or dropped here, since a panel user has Settings, not a shell.
 */
export function errorMessage(error: unknown): string {
  if (isAppErrorShape(error) && error.message) return panelWords(error.code, error.message);
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return String(error);
}

/** Codes whose fix is in Settings: the panel offers to open it next to the message. */
const SETTINGS_CODES = new Set(['bad_config', 'auth_failed', 'quota_exceeded']);

/** Whether the error is one Settings can fix (no model chosen, a key refused, a model that does not exist there). */
export function fixedInSettings(error: { code: string; message: string } | null | undefined): boolean {
  if (!error) return false;
  return SETTINGS_CODES.has(error.code) || (error.code === 'not_found' && /\bhas no model\b/.test(error.message));
}

export function panelWords(code: string, message: string): string {
  if (code === 'auth_failed' && /rejected the API key/.test(message)) return 'The model provider did not accept the API key. Check the key in Settings.';
  if (code === 'bad_config' && /^Choose a model provider in Settings first/.test(message)) return 'Connect a model first: choose a provider in Settings.';
  return (
    message
      // "custom (http://localhost:1234/v1) failed ..." names a preset: say what it is.
      .replace(/^(?:openai|anthropic|ollama|lmstudio|vllm|openrouter|gemini|azure|custom) \((https?:[^)]+)\)/, 'The model server at $1')
      .replace(/(Could not reach|Reach) (?:openai|anthropic|ollama|lmstudio|vllm|openrouter|gemini|azure|custom) \((https?:[^)]+)\)/, '$1 the model server at $2')
      .replace(/,? or the [A-Z_]+(?: \/ [A-Z_]+)* variable/, '')
      .replace(/: pass --repo with (?:the folder|the path) of a git checkout/, ': choose the folder of a git checkout')
      .replace(/\.\. /g, '. ')
  );
}

/** An error as it crosses the channel: `{code, message}` data. */
export function isAppErrorShape(error: unknown): error is { code: string; message: string } {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && 'message' in error && typeof error.message === 'string';
}

/** What a connection test found, in the panel's own words: a failure's message is rewritten like any error's. */
export function testResultText(answer: { ok: boolean; message: string; code?: string | undefined }): { ok: boolean; text: string } {
  return { ok: answer.ok, text: !answer.ok && answer.code ? panelWords(answer.code, answer.message) : answer.message };
}

/**
 * A message shown on the first-run card, where the fields are right above it: "in Settings" would send the user away
 * from the very field that fixes it.
 */
export function onConnectCard(result: { ok: boolean; text: string }): { ok: boolean; text: string } {
  const text = result.text
    .replace(/Check the key in Settings\./, 'Check the API key field above: paste the key again, then Test.')
    .replace(/choose a provider in Settings/, 'choose a provider above')
    .replace(/\bin Settings\b/g, 'above');
  return { ok: result.ok, text };
}

import { describe, expect, it } from 'vitest';
import { errorMessage, fixedInSettings, panelWords } from '../../../../extension/ui/error-message';

describe("errors in the panel's own words", () => {
  it('names no preset, environment variable or command-line flag', () => {
    expect(panelWords('auth_failed', 'custom (http://localhost:1234/v1) rejected the API key (401). Check the key in Settings, or the OPENAI_API_KEY / ANTHROPIC_API_KEY / DEPUTY_API_KEY variable.')).toBe(
      'The model provider did not accept the API key. Check the key in Settings.',
    );
    expect(panelWords('unavailable', 'Could not reach ollama (http://localhost:11434/v1): connect ECONNREFUSED. Check the base URL and that the server is running.')).toBe(
      'Could not reach the model server at http://localhost:11434/v1: connect ECONNREFUSED. Check the base URL and that the server is running.',
    );
    expect(panelWords('unavailable', 'custom (http://127.0.0.1:9/v1) failed with 500: boom.. Gave up after 1 attempts.')).toBe('The model server at http://127.0.0.1:9/v1 failed with 500: boom. Gave up after 1 attempts.');
    expect(panelWords('bad_request', '/tmp/x is not a git repository: pass --repo with the folder of a git checkout (run git init there first if it is new)')).toBe(
      '/tmp/x is not a git repository: choose the folder of a git checkout (run git init there first if it is new)',
    );
    expect(errorMessage({ code: 'bad_config', message: 'Choose a model provider in Settings first.' })).toBe('Connect a model first: choose a provider in Settings.');
    expect(errorMessage(new Error('plain'))).toBe('plain');
  });

  it('offers Settings only for errors Settings can fix', () => {
    expect(fixedInSettings({ code: 'bad_config', message: 'Choose a model provider in Settings first.' })).toBe(true);
    expect(fixedInSettings({ code: 'not_found', message: 'custom (http://x/v1) has no model "gpt-9" or no such endpoint (404).' })).toBe(true);
    expect(fixedInSettings({ code: 'not_found', message: 'Tab 3 is gone.' })).toBe(false);
    expect(fixedInSettings(null)).toBe(false);
  });
});

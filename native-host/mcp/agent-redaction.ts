import { toErrorShape } from '../../shared/errors';
import { MCP_REDACT_MAX_CHARS, type McpCallResult, type McpSessionRef } from '../../shared/protocol';
import type { BrowserLink } from './browser-link';

/** Redaction is a quick step in the background; a browser that does not answer in this time is treated as gone. */
const REDACT_TIMEOUT_MS = 30_000;

/** Cuts texts so that all of them together fit one redaction request, each keeping its start and a note of the cut. */
export function fitForRedaction(texts: string[], limit = MCP_REDACT_MAX_CHARS): string[] {
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total <= limit) return texts;
  let left = limit;
  return texts.map((text) => {
    if (text.length <= left) {
      left -= text.length;
      return text;
    }
    const note = `\n[... ${text.length} characters in all; the rest was cut: too long to return]`;
    const keep = Math.max(0, left - note.length);
    left = 0;
    return keep > 0 ? text.slice(0, keep) + note : '';
  });
}

/** What an agent gets when its step ran but its output could not be checked for the user's personal data. */
export function withheldResult(why: string): McpCallResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `The step ran, but Deputy withheld its output: the user's personal data is kept in Deputy's browser extension, which could not check this output for it (${why}). Check that the browser is open and its side panel says "host: connected", then read the output again (shell_check for a background process).`,
      },
    ],
  };
}

/**
 * A host-side result (shell output, a desktop step) as a connected agent may see it: every text part, and the extra
 * texts given (the step's line for the panel's log), redacted by the extension with the user's personal data. When the
 * extension cannot do it, the output is withheld rather than sent unchecked (fail closed); images pass as they are.
 */
export async function redactForAgent(link: BrowserLink, session: McpSessionRef, result: McpCallResult, extra: string[] = []): Promise<{ result: McpCallResult; extra: string[] }> {
  const parts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const texts = fitForRedaction([...extra, ...parts]);
  let redacted: string[];
  try {
    redacted = (await link.call('mcp.redact', { session, texts }, { timeoutMs: REDACT_TIMEOUT_MS })).texts;
  } catch (error) {
    return { result: withheldResult(toErrorShape(error).message), extra: extra.map(() => '(output withheld: it could not be checked for personal data)') };
  }
  if (redacted.length !== texts.length) return { result: withheldResult('its answer did not match the request'), extra: extra.map(() => '(output withheld)') };
  let next = extra.length;
  const content = result.content.map((part) => (part.type === 'text' ? { type: 'text' as const, text: redacted[next++] ?? '' } : part));
  return { result: { ...result, content }, extra: redacted.slice(0, extra.length) };
}

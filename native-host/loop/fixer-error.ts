import type { ResultEvent } from './claude-stream';

/**
 * Why a fixer run ended in an error result, which decides what the loop does next:
 * - auth: not logged in, a bad or expired key, no credit. Only a person can fix it: the loop stops as needs_human.
 * - budget: the run reached --max-budget-usd, the loop's remaining money.
 * - max_turns: the run reached --max-turns before it finished.
 * - session_missing: the session it was asked to resume is gone; a fresh run can go on.
 * - api: the API failed (overloaded, 5xx, rate limited, a request it refused); worth a retry.
 * - execution: the CLI failed during the run for another reason.
 */
export type FixerErrorKind = 'auth' | 'budget' | 'max_turns' | 'session_missing' | 'api' | 'execution';

const AUTH_TEXT =
  /not logged in|please run \/login|invalid (?:x-)?api[ -]key|failed to authenticate|authentication_error|oauth token (?:has )?(?:expired|been revoked)|credit balance is too low|billing|subscription|organization has been disabled/i;
const AUTH_ERRORS = new Set(['authentication_failed', 'billing_error', 'oauth_org_not_allowed', 'permission_error']);

export interface ErrorEvidence {
  result?: ResultEvent;
  /** The `error` of the message the CLI made up when a request failed, with its text. */
  apiError?: { error: string; text: string };
  /** What the CLI printed on stderr (it says "No conversation found with session ID" there). */
  stderr?: string;
}

const messageOf = (evidence: ErrorEvidence): string => {
  const fromErrors = (evidence.result?.errors ?? []).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join('; ');
  return (evidence.result?.result ?? '').trim() || evidence.apiError?.text || fromErrors || (evidence.stderr ?? '').trim().split('\n').slice(-3).join(' ');
};

/** The kind of error and the CLI's own message for it. */
export function classifyFixerError(evidence: ErrorEvidence): { kind: FixerErrorKind; message: string } {
  const { result, apiError } = evidence;
  const message = messageOf(evidence).slice(0, 600) || `the run ended with ${result?.subtype ?? 'an error'}`;
  const status = result?.api_error_status ?? undefined;
  if (result?.subtype === 'error_max_budget_usd') return { kind: 'budget', message };
  if (result?.subtype === 'error_max_turns') return { kind: 'max_turns', message: message || 'the run reached its turn limit' };
  if ((apiError && AUTH_ERRORS.has(apiError.error)) || status === 401 || status === 403 || AUTH_TEXT.test(message)) return { kind: 'auth', message };
  if (/no conversation found with session id/i.test(`${message} ${evidence.stderr ?? ''}`)) return { kind: 'session_missing', message };
  if (apiError || (status !== undefined && status !== null)) return { kind: 'api', message };
  return { kind: 'execution', message };
}

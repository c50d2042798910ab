import type { AgentState } from './agent-state';
import type { ApprovalRequest } from './approval';
import { lookAlikeWarning } from './host-display';
import { readableLabel } from './label-text';
import { parseWebAddress } from './web-address';

/** The hosts the task knows as the user's: where it started and every site approved for it. */
export function knownHosts(state: Pick<AgentState, 'startUrl' | 'approvedOrigins'>, patterns: readonly string[] = []): string[] {
  const addresses = [state.startUrl, ...state.approvedOrigins.sites, ...state.approvedOrigins.reach];
  const hosts = addresses.map((a) => parseWebAddress(a)?.host).filter((h): h is string => h !== undefined);
  const fromPatterns = patterns.map((p) => parseWebAddress(`https://${p.replace(/^https?:\/\//, '').replace(/^\*\./, '')}`)?.host);
  return [...new Set([...hosts, ...fromPatterns.filter((h): h is string => h !== undefined)])];
}

/**
 * A card as the user must see it: no bidirectional or invisible characters in its words (a label the page wrote
 * can reach the intent and the reason), and a warning when its destination is an internationalized name that would
 * pass for a site the user knows (shown above the card's other words).
 */
export function forDisplay(request: ApprovalRequest, known: readonly string[]): ApprovalRequest {
  const shown: ApprovalRequest = {
    ...request,
    intent: readableLabel(request.intent),
    reason: readableLabel(request.reason),
    ...(request.consequence === undefined ? {} : { consequence: readableLabel(request.consequence) }),
  };
  const host = request.destination ? parseWebAddress(request.destination)?.host : undefined;
  const warning = host ? lookAlikeWarning(host, known) : null;
  if (warning === null) return shown;
  return { ...shown, warning: `Look-alike address: ${warning}.` };
}

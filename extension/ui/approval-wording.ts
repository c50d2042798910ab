import { hostWithUnicode } from '../../shared/agent/host-display';
import { ALWAYS_ASK_CLASSES, type RiskClass } from '../../shared/agent/risk-class';
import type { PendingApproval } from '../../shared/protocol';
import { plainText } from './step-wording';

/** An internationalized host as the browser sends it (punycode), with its Unicode beside it: "xn--bcher-kva.example (bücher.example)". */
function unicodeBeside(host: string): string {
  const unicode = hostWithUnicode(host);
  return unicode === host ? '' : ` (${unicode})`;
}

/** Where the action happens, short enough for the narrow panel: host and path, without the query. */
export function placeOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}${unicodeBeside(parsed.hostname)}`;
  } catch {
    return url;
  }
}

/** The host of an address or origin, for a button: "shop.example", "xn--shp-ted.test (shоp.test)". */
export function hostLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${unicodeBeside(parsed.hostname)}`;
  } catch {
    return url.split('/')[0] ?? url;
  }
}

/**
 * A step that spends money, changes the account, cannot be undone, agrees for the user, or sends the user's data to
 * another site: Reject is its default, and Enter never approves it.
 */
export function isRiskyApproval(approval: PendingApproval): boolean {
  return approval.classes.some((risk) => ALWAYS_ASK_CLASSES.has(risk)) || approval.sends != null;
}

const AMOUNT = /(?:[$€£¥]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*(?:\.\d{1,2})?\s?(?:USD|EUR|GBP|CHF|€|\$))/i;

/** A price named in the step ("Pay $499"), which the Approve button repeats so the user approves that amount. */
export function amountOf(approval: PendingApproval): string | null {
  return AMOUNT.exec(plainText(approval.intent))?.[0].trim() ?? null;
}

function has(approval: PendingApproval, risk: RiskClass): boolean {
  return approval.classes.includes(risk);
}

/**
 * The Approve button's words: the exact consequence in Deputy's own words, decided by what the gate found rather than
 * by the page's label for the button ("Pay $499 on shop.example", "Send email, card to evil.example"), so a page
 * cannot dress a payment up as something else. A low-risk step keeps a plain "Approve".
 */
export function approveLabel(approval: PendingApproval): string {
  const site = hostLabel(approval.actsOn ?? approval.url);
  const undoable = has(approval, 'irreversible') ? ' (cannot be undone)' : '';
  if (approval.tool === 'update_plan') return 'Start';
  if (has(approval, 'money')) {
    const amount = amountOf(approval);
    return `Pay${amount ? ` ${amount}` : ''} on ${site}${undoable}`;
  }
  if (has(approval, 'account')) return `Change your account on ${site}${undoable}`;
  if (approval.sends && approval.destination) {
    const fields = approval.sends.fields.slice(0, 4).join(', ');
    return `Send ${fields || 'the form'} to ${hostLabel(approval.destination)}${undoable}`;
  }
  if (has(approval, 'commitment')) return `Agree on ${site}${undoable}`;
  if (has(approval, 'irreversible')) return `Do it on ${site} (cannot be undone)`;
  if (has(approval, 'send-message')) return `Send the message on ${site}`;
  if (approval.destination) return `Open ${hostLabel(approval.destination)}`;
  if (has(approval, 'submit')) return `Submit the form on ${site}`;
  return 'Approve';
}

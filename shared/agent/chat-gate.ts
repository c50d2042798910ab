import { createRedactor } from './redactor';
import type { RiskClass } from './risk-class';
import { createSecretVault, type SecretVault } from './secret-vault';

/** Personal data found in a message about to go to support, by kind (card, ssn, email, ...). */
export interface PersonalFinding {
  kind: string;
  /** The placeholder the model sees for it, never the value. */
  placeholder: string;
}

export interface Commitment {
  risk: RiskClass;
  /** Why it binds the user, in words the approval card shows. */
  reason: string;
}

const KIND_WORDS: Record<string, string> = {
  card: 'a card number',
  ssn: 'a social security number',
  token: 'an access token',
  key: 'an API key',
  password: 'a password or secret',
  email: 'an email address',
  phone: 'a phone number',
};

export function personalKindText(kind: string): string {
  // The user's own stored values are named by them (card_number, home_address): their name says what they are.
  return KIND_WORDS[kind] ?? `your ${kind.replace(/_/g, ' ')}`;
}

const squash = (text: string): string => text.replace(/[\s().-]/g, '').toLowerCase();

/**
 * Finds personal data in a message about to go to the other side that the user did not list among the facts Deputy
 * may share: the user's own stored values (card number, password, ...) wherever they appear, and anything that looks
 * like a card number, SSN, password, key, token, email address or phone number. `text` is what would really be sent,
 * placeholders already resolved; a fact's value (however it is spaced) is never a finding.
 */
export function findUnsharedPersonalData(text: string, facts: Record<string, string>, vault: SecretVault): PersonalFinding[] {
  const allowed = new Set(Object.values(facts).map(squash).filter((value) => value !== ''));
  const findings: PersonalFinding[] = [];
  for (const { name, value } of vault.values()) {
    if (value.length < 3 || allowed.has(squash(value)) || !text.includes(value)) continue;
    const kind = /^redacted_([a-z]+)_\d+$/.exec(name)?.[1] ?? name;
    findings.push({ kind, placeholder: `{{${name}}}` });
  }
  const scratch = createSecretVault();
  createRedactor(scratch, { emails: true, phones: true }).redact(text);
  for (const [name, value] of Object.entries(scratch.contents().entries)) {
    if (allowed.has(squash(value))) continue;
    const kind = /^redacted_([a-z]+)_\d+$/.exec(name)?.[1] ?? 'personal';
    // The same value found by both routes is reported once, under the user's own name for it.
    const known = vault.values().find((entry) => entry.value === value);
    if (known && findings.some((finding) => finding.placeholder === `{{${known.name}}}`)) continue;
    findings.push({ kind, placeholder: known ? `{{${known.name}}}` : `[${kind}]` });
  }
  return findings;
}

const NEGATED = /\b(?:no|not|never|don'?t|do not|won'?t|will not|can'?t|cannot|can not|wouldn'?t|rather not|decline|refuse|reject)\b/i;

/** Something support offers instead of (or on top of) the remedy asked for. */
const OFFER = /\b(?:store credit|(?:account |shop )?credit|voucher|gift card|coupon|discount|promo(?:tion)? code|partial refund|replacement|exchange|offer|compensation|points|goodwill)\b/i;
// An amount alone is not a charge: "$25 store credit" is an offer. Only the words that make it one count.
const CHARGE = /\b(?:charge|charged|fee|surcharge|pay|payment|bill|billed|invoice|cost(?:s)?)\b/i;
const PLAN = /\b(?:upgrade|downgrade|switch|change|cancel|pause|renew|extend|move)\b[^.?!]{0,40}\b(?:plan|subscription|membership|tier|contract|package)\b|\b(?:plan|subscription|membership|tier|contract)\b[^.?!]{0,30}\b(?:upgrade|downgrade|change|cancel(?:led|ation)?|pause|renewal)\b/i;
const CLOSE_ACCOUNT = /\b(?:close|delete|deactivate|cancel|terminate|remove)\b[^.?!]{0,30}\baccount\b|\baccount\b[^.?!]{0,20}\b(?:closure|deletion|closed|deleted|deactivated)\b/i;
const PAYMENT_DETAILS = /\b(?:card number|credit card|debit card|card details|cvv|cvc|security code|expiry|expiration date|iban|sort code|routing number|bank (?:account|details))\b/i;

/** An answer that says yes to whatever support proposed in the message it answers, in a few languages. */
const AFFIRM =
  /^\s*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|al(?:l )?right|fine|agreed|deal|great|perfect|sounds good|sounds great|that works|that'?s fine|that'?s great|go ahead|please do|do it|let'?s do (?:it|that)|i agree|i accept|accept(?:ed)?|confirm(?:ed)?|i confirm|absolutely|of course|please proceed|proceed|oui|d'accord|ja|einverstanden|gerne|sí|si|vale|de acuerdo|claro|はい|好的|네)(?![\p{L}])/iu;
/** Words that accept, choose or agree to something, anywhere in a sentence. */
const ACCEPT =
  /\b(?:i(?:'ll| will| would|'d)? (?:accept|agree|take|go with|choose|pick|opt for|prefer|confirm|authori[sz]e|consent)|i'?m (?:happy|fine|ok|okay) with|let'?s go with|let'?s (?:do|take)|go with|(?:accept|agree to|go ahead(?: and| with)?|proceed with|confirm|authori[sz]e|consent to)\b)/i;
/** A reply that picks one of the options on offer: "the first one", "option 2", "the cheaper plan". */
const CHOICE =
  /\b(?:the )?(?:first|second|third|fourth|last|other|cheaper|cheapest|latter|former|1st|2nd|3rd) (?:one|option|choice|plan|offer)\b|\b(?:option|choice|number|no\.?) ?#?\d\b|\b(?:option|choice) [a-d]\b|^\s*#?\d\s*[.!]?\s*(?:thanks?|please)?[.!]?\s*$|\bthat one\b|\bthis one\b/i;
/** A reply that turns the proposal down. */
const DECLINE = /^\s*(?:no|nope|nah|not really|no thanks|nein|non|no gracias|いいえ)(?![\p{L}])|\b(?:i (?:do not|don't|won't|will not|can't|cannot) (?:accept|agree|want)|decline|reject|refuse)\b/iu;
/** Support asks for a yes: "Would you like...", "Do you accept...", "Shall I...", "Can I go ahead...". */
const PROPOSAL = /\b(?:would you like|do you (?:want|accept|agree)|shall i|should i|can i go ahead|may i|is that (?:ok|okay|fine|alright)|are you happy|would that work|do you confirm|please confirm|reply yes|to accept)\b/i;

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((part) => part.trim() !== '');
}

/** Sentences that accept something and are not negated ("I accept", not "I do not accept"). */
function acceptingSentences(text: string): string[] {
  return sentences(text).filter((sentence) => {
    const match = ACCEPT.exec(sentence);
    if (!match) return false;
    // "I won't accept", "no, I do not agree": the negation before the acceptance word undoes it.
    return !NEGATED.test(sentence.slice(0, match.index + match[0].length));
  });
}

function subjectsOf(text: string): { risk: RiskClass; what: string }[] {
  const found: { risk: RiskClass; what: string }[] = [];
  if (CLOSE_ACCOUNT.test(text)) found.push({ risk: 'account', what: 'closing an account' });
  if (PLAN.test(text)) found.push({ risk: 'account', what: 'a change of plan or subscription' });
  if (CHARGE.test(text)) found.push({ risk: 'money', what: 'a charge or payment' });
  if (OFFER.test(text)) found.push({ risk: 'money', what: 'an offer (credit, voucher, replacement or partial refund)' });
  return found;
}

/**
 * Finds commitments in a message to support: accepting an offer or credit, agreeing to a charge, changing a plan or
 * subscription, sharing payment details, closing an account. It looks at the outgoing message itself ("I accept the
 * store credit") and at what it answers: a bare "yes" to "Would you like a $25 store credit instead?" commits just
 * the same. A refusal ("No, I do not accept store credit") and a question ("What would the fee be?") do not.
 */
export function detectCommitments(outgoing: string, answering: string | null): Commitment[] {
  const out: Commitment[] = [];
  const add = (risk: RiskClass, reason: string): void => {
    if (!out.some((c) => c.reason === reason)) out.push({ risk, reason });
  };
  const quoted = (text: string): string => `"${text.replace(/\s+/g, ' ').trim().slice(0, 200)}"`;

  for (const sentence of acceptingSentences(outgoing)) {
    for (const subject of subjectsOf(sentence)) add(subject.risk, `it agrees to ${subject.what}: ${quoted(sentence)}`);
  }
  // Asking for a plan change or an account closure is a commitment whatever words carry it.
  const own = outgoing.replace(/\?[^?]*$/, '');
  if (!NEGATED.test(own) && /\b(?:please |i want to |i'?d like to |i would like to )?(?:close|delete|deactivate|terminate)\b[^.?!]{0,30}\baccount\b/i.test(own)) {
    add('account', `it asks to close the account: ${quoted(outgoing)}`);
  }
  if (!NEGATED.test(own) && /\b(?:please |i want to |i'?d like to |i would like to )(?:upgrade|downgrade|switch|change|cancel|pause)\b[^.?!]{0,40}\b(?:plan|subscription|membership|tier)\b/i.test(own)) {
    add('account', `it asks to change a plan or subscription: ${quoted(outgoing)}`);
  }
  const sharesPayment = PAYMENT_DETAILS.test(outgoing) && /\d{4}|\b(?:is|:)\s*\S/.test(outgoing) && !/\?\s*$/.test(outgoing.trim()) && !NEGATED.test(outgoing);
  if (sharesPayment) add('money', `it shares payment details: ${quoted(outgoing)}`);

  // A reply to a proposal that accepts it, picks one of its options or just goes along with what was offered commits
  // the user, whatever its words; only a refusal or a plain question does not.
  const proposals = answering ? sentences(answering).filter((sentence) => PROPOSAL.test(sentence) || OFFER.test(sentence) || CHARGE.test(sentence) || PLAN.test(sentence)) : [];
  if (proposals.length > 0 && !DECLINE.test(outgoing) && !isPlainQuestion(outgoing)) {
    const goesAlong =
      (AFFIRM.test(outgoing) && !NEGATED.test(outgoing.split(/[.!?]/)[0] ?? '')) ||
      acceptingSentences(outgoing).length > 0 ||
      CHOICE.test(outgoing) ||
      (subjectsOf(outgoing).length > 0 && !NEGATED.test(outgoing));
    if (goesAlong) {
      let named = false;
      for (const sentence of proposals) {
        for (const subject of subjectsOf(sentence)) {
          named = true;
          add(subject.risk, `it says yes to ${subject.what} that support proposed: ${quoted(sentence)}`);
        }
      }
      if (!named) add('commitment', `it agrees to what support proposed: ${quoted(proposals.join(' '))}`);
      add('commitment', `the reply ${quoted(outgoing)} accepts or chooses what support proposed`);
    }
  }
  return out;
}

/** A question, with nothing in it that accepts: "What would the fee be?" */
function isPlainQuestion(text: string): boolean {
  return /\?\s*$/.test(text.trim()) && acceptingSentences(text).length === 0 && !AFFIRM.test(text) && !CHOICE.test(text);
}

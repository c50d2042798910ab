import type { MailboxConfig } from '../../shared/protocol/mail-protocol';

export interface MailHeaderInfo {
  /** The sender's address, lower-cased. */
  fromAddress: string;
  subject: string;
}

type Rules = Pick<MailboxConfig, 'from' | 'subject' | 'subjectRegex'>;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "*@reports.example.com" as an anchored, case-insensitive regular expression; "*" is the only wildcard. */
function addressPattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.trim().split('*').map(escapeRegex).join('.*')}$`, 'iu');
}

/**
 * Why a mail does not count, or undefined when it does. The answer goes into an "ignored" event, so it names the rule,
 * never more of the mail than its sender and subject.
 */
export function ruleMismatch(mail: MailHeaderInfo, rules: Rules): string | undefined {
  if (rules.from.length > 0 && !rules.from.some((pattern) => addressPattern(pattern).test(mail.fromAddress))) {
    return `the sender is not ${rules.from.join(' or ')}`;
  }
  if (rules.subject !== undefined && !mail.subject.toLowerCase().includes(rules.subject.toLowerCase())) {
    return `the subject does not contain "${rules.subject}"`;
  }
  if (rules.subjectRegex !== undefined && !new RegExp(rules.subjectRegex, 'iu').test(mail.subject)) {
    return `the subject does not match /${rules.subjectRegex}/`;
  }
  return undefined;
}

/** The rules in words, for "nothing came" messages and doctor. */
export function describeRules(rules: Rules): string {
  const parts: string[] = [];
  parts.push(rules.from.length > 0 ? `from ${rules.from.join(' or ')}` : 'from any sender');
  if (rules.subject !== undefined) parts.push(`with "${rules.subject}" in the subject`);
  if (rules.subjectRegex !== undefined) parts.push(`with a subject matching /${rules.subjectRegex}/`);
  return parts.join(' ');
}

/** Whether every sender rule is a plain address, so a server-side search can narrow by it. */
export function exactSenders(rules: Rules): string[] | undefined {
  return rules.from.length > 0 && rules.from.every((pattern) => !pattern.includes('*'))
    ? rules.from.map((pattern) => pattern.trim())
    : undefined;
}

import { z } from 'zod';
import { detectCommitments, findUnsharedPersonalData, personalKindText } from './chat-gate';
import { inputRisks } from './input-gate';
import { formatPlan, planStepsChanged, type Plan } from './plan';
import { ALWAYS_ASK_CLASSES, type RiskClass } from './risk-class';
import type { SecretVault } from './secret-vault';
import { hostOf, matchesAny } from './site-list';
import type { AnyTool, PageLookup } from './tool';

/** The limits a task runs in, set by the user. */
export const PolicyConfig = z.object({
  /** ask: the user approves the plan and each action. act: routine actions proceed; risky ones still stop. */
  mode: z.enum(['ask', 'act']).default('ask'),
  /** Sites the task may act on without asking; empty means the site the task started on. */
  allowedSites: z.array(z.string()).default([]),
  /** Sites the task never acts on or opens. */
  deniedSites: z.array(z.string()).default([]),
  /**
   * The facts the user allowed a support chat to be told (order number, email, name), by name. Any other personal
   * data in an outgoing chat message is blocked.
   */
  allowedFacts: z.record(z.string(), z.string()).default({}),
});
export type PolicyConfig = z.infer<typeof PolicyConfig>;

export type Decision = 'allow' | 'ask' | 'deny';

export interface Classification {
  classes: RiskClass[];
  /** Why each class above the tool's base applies, in words the approval dialog shows. */
  reasons: string[];
  personalData: boolean;
  leavesApprovedSites: boolean;
  /** Set when the call must never run, whatever the mode. */
  forbidden?: string;
  /** A question for the user when the call is blocked and they must say what to do instead. */
  askUser?: string;
  /** The plan's sub-goals changed; in ask mode the user approves the plan. */
  newPlan?: Plan;
}

export interface GateVerdict extends Classification {
  decision: Decision;
  reason: string;
}

interface Rule {
  risk: RiskClass;
  words: RegExp;
  reason: string;
}

// Labels are matched mostly in English (money words also in German, French, Spanish and Italian): a button worded
// otherwise keeps its tool's class (act). The field type and autocomplete hint add signals that do not depend on
// wording; ask mode covers the rest.
const LABEL_RULES: Rule[] = [
  {
    risk: 'money',
    words:
      /\b(pay|place (?:my |your |the )?order|buy|purchase|check ?out|complete (?:purchase|order|payment)|subscribe|donate|transfer|send money|add funds|top up|book now|upgrade|kaufen|bezahlen|bestellen|payer|acheter|commander|pagar|comprar|acquista)\b/i,
    reason: 'it looks like it spends money',
  },
  {
    risk: 'account',
    words: /\b((?:delete|close|deactivate|remove) (?:my |your |the )?account|change (?:my |your )?(?:password|email)|reset password|cancel (?:my |your )?(?:subscription|membership|plan)|unsubscribe|sign out of all)\b/i,
    reason: 'it changes the account',
  },
  {
    risk: 'irreversible',
    words: /\b(delete|permanently|erase|destroy|cancel order|cannot be undone|wipe|revoke)\b/i,
    reason: 'it cannot be undone',
  },
  { risk: 'send-message', words: /\b(send|post|reply|comment|publish|share)\b/i, reason: 'it sends a message' },
  { risk: 'submit', words: /\b(submit|save|confirm|apply|sign ?up|register|log ?in|sign ?in|finish|continue)\b/i, reason: 'it submits a form' },
];

const SENSITIVE_FIELD = /\b(card|cc-|cvv|cvc|csc|expir|iban|account number|routing|ssn|social security)\b/i;

function labelRisks(label: string, classes: Set<RiskClass>, reasons: string[]): void {
  for (const rule of LABEL_RULES) {
    if (rule.words.test(label) && !classes.has(rule.risk)) {
      classes.add(rule.risk);
      reasons.push(`${rule.reason} ("${label.slice(0, 60)}")`);
    }
  }
}

function argText(args: Record<string, unknown>): string {
  return JSON.stringify(args);
}

export interface GateInput {
  tool: AnyTool<never>;
  args: Record<string, unknown>;
  page: PageLookup;
  vault: SecretVault;
  plan: Plan | null;
  config: PolicyConfig;
  /** The approved sites when the config names none: the site the task started on. */
  startUrl: string;
}

/** Classes one tool call from its declared risk, its arguments and the element it targets. */
export function classifyToolCall(input: GateInput): Classification {
  const { tool, args, page, vault, config } = input;
  const classes = new Set<RiskClass>([tool.risk]);
  const reasons: string[] = [];
  // A task that started on a browser page (the New Tab page, a blank tab) has no site yet: the first site it opens
  // becomes its site (see runLoop), and until then there is nothing to leave.
  const startHost = hostOf(input.startUrl);
  const approved = config.allowedSites.length > 0 ? config.allowedSites : startHost === null ? [] : [startHost];
  let leavesApprovedSites = false;
  let forbidden: string | undefined;

  const ref = typeof args.ref === 'number' ? args.ref : undefined;
  const element = ref === undefined ? undefined : page.element(ref);
  const label = element ? `${element.name}` : '';
  // A placeholder in a read-only call (a search on the page, a question to the user) is never resolved, so it sends
  // nothing; anywhere else it may become the real value.
  // A chat message is checked as a whole below: its placeholders may be facts the user allowed it to share.
  const placeholders = tool.risk === 'read' || tool.outgoingMessage ? [] : vault.placeholdersIn(argText(args));
  const personalData = placeholders.length > 0;
  if (personalData) reasons.push(`it uses personal data (${placeholders.map((p) => `{{${p}}}`).join(', ')})`);

  if (tool.name === 'click' || tool.name === 'check' || (tool.name === 'press' && ref !== undefined)) labelRisks(label, classes, reasons);
  const facts = inputRisks(tool.name, args, page);
  for (const text of facts.labels) labelRisks(text, classes, reasons);
  for (const { risk, reason } of facts.classes) if (!classes.has(risk) && classes.add(risk)) reasons.push(reason);
  if ((tool.name === 'press' && /(^|\+)Enter$/i.test(String(args.key))) || (tool.name === 'type' && args.submit === true)) {
    classes.add('submit');
    reasons.push('it presses Enter, which usually submits');
    if (element && /message|chat|reply|comment|write/i.test(element.name)) classes.add('send-message');
  }
  if (tool.name === 'type' || tool.name === 'select') {
    const field = `${element?.name ?? ''} ${element?.autocomplete ?? ''}`;
    if (element?.inputType === 'password' || /password/i.test(element?.autocomplete ?? '')) {
      classes.add('account');
      reasons.push('it types into a password field');
    } else if (SENSITIVE_FIELD.test(field)) {
      classes.add('money');
      reasons.push(`it types into a payment or identity field ("${label.slice(0, 60)}")`);
    }
  }

  const url = typeof args.url === 'string' ? args.url : undefined;
  if (url !== undefined) {
    if (/\{\{|%7B%7B/i.test(url)) forbidden = 'it would put personal data into a web address, which sends it to that site';
    else if (matchesAny(url, config.deniedSites)) forbidden = `${url} is on the list of sites Deputy must not open`;
    else if (approved.length > 0 && !matchesAny(url, approved)) {
      leavesApprovedSites = true;
      reasons.push(`it leaves the approved sites (${approved.join(', ')})`);
    }
  }
  if (tool.risk !== 'read' && matchesAny(page.url, config.deniedSites)) forbidden = `${page.url} is on the list of sites Deputy must not act on`;
  // A link can lead off the approved sites without any navigate call; acting there needs the user, like going there.
  else if (tool.risk !== 'read' && url === undefined && approved.length > 0 && /^https?:/i.test(page.url) && !matchesAny(page.url, approved)) {
    leavesApprovedSites = true;
    reasons.push(`it acts on ${hostOf(page.url) ?? page.url}, outside the approved sites (${approved.join(', ')})`);
  }

  let askUser: string | undefined;
  if (tool.outgoingMessage) {
    const message = tool.outgoingMessage(args, page);
    const findings = findUnsharedPersonalData(vault.resolve(message), config.allowedFacts, vault);
    if (findings.length > 0) {
      const kinds = [...new Set(findings.map((f) => personalKindText(f.kind)))].join(' and ');
      forbidden = `the message contains ${kinds}, which is not among the facts the user allowed Deputy to share, so it was not sent`;
      askUser = `Deputy was about to send the support chat ${kinds}, which you did not list as a fact it may share, so it did not send it. The message was: "${message.slice(0, 500)}". What should Deputy do instead?`;
    }
    for (const commitment of detectCommitments(message, page.chat?.lastFromThem ?? null)) {
      classes.add(commitment.risk);
      reasons.push(commitment.reason);
    }
  }

  const result: Classification = { classes: [...classes], reasons, personalData, leavesApprovedSites };
  if (forbidden !== undefined) result.forbidden = forbidden;
  if (askUser !== undefined) result.askUser = askUser;
  if (tool.name === 'update_plan') {
    const plan = args as unknown as Plan;
    if (planStepsChanged(input.plan, plan)) result.newPlan = plan;
  }
  return result;
}

/** Decides one call: deny what is forbidden, ask for what the mode or the risk requires, allow the rest. */
export function decide(config: PolicyConfig, classification: Classification): GateVerdict {
  const verdict = (decision: Decision, reason: string): GateVerdict => ({ ...classification, decision, reason });
  if (classification.forbidden !== undefined) return verdict('deny', `Not allowed: ${classification.forbidden}.`);
  if (config.mode === 'ask' && classification.newPlan) {
    return verdict('ask', `Approve this plan?\n${formatPlan(classification.newPlan)}`);
  }
  const risky = classification.classes.filter((c) => ALWAYS_ASK_CLASSES.has(c));
  if (risky.length > 0 || classification.personalData || classification.leavesApprovedSites) {
    return verdict('ask', `Needs your approval because ${classification.reasons.join('; ') || risky.join(', ')}.`);
  }
  if (config.mode === 'ask' && classification.classes.some((c) => c !== 'read')) {
    return verdict('ask', 'You asked to approve each action.');
  }
  return verdict('allow', 'Allowed by the task mode.');
}

export function gateToolCall(input: GateInput): GateVerdict {
  return decide(input.config, classifyToolCall(input));
}

import { detectCommitments, findUnsharedPersonalData, personalKindText } from './chat-gate';
import { PAGE_INPUT_TEXT, fillsField } from './page-input-tools';
import { destinationOf } from './gate-destination';
import { DROP_TOOLS, judgeDrop } from './drop-gate';
import { fieldFits } from './placeholder-fit';
import { borrowedAuthority } from './frame-authority';
import { inputRisks } from './input-gate';
import { readableLabel } from './label-text';
import type { Classification, Decision, GateInput, GateVerdict, PolicyConfig } from './gate-types';
import { formatPlan, planStepsChanged, type Plan } from './plan';
import { beyondPlan } from './plan-scope';
import { DRAFT_SENDING } from './support-draft-sending';
import { ALWAYS_ASK_CLASSES, type RiskClass } from './risk-class';
import { type RiskFindings, addRisk, effectRisks, isPaymentField, wordRisks } from './risk-signals';
import { type ApprovedScope, inScope, matchesAny, originLabel, originOf, scopeText } from './site-list';

export { PolicyConfig } from './gate-types';
export type { Classification, Decision, GateInput, GateVerdict } from './gate-types';

/** The tools that act on an element of the page (and so in the frame that element is in). */
const ELEMENT_TOOLS = new Set(['click', 'type', 'select', 'set_value', 'check', 'hover', 'press', 'scroll', 'drag', 'click_at', 'hover_at', 'drag_at']);
/** A click at a position commits as a click on the element under it does: it is judged by that element's effect. */
const COMMITTING = new Set(['click', 'check', 'press', 'type', 'select', 'click_at']);

function chatOutgoing(input: GateInput, elementName: string | undefined): string | undefined {
  const { tool, args, page } = input;
  if (tool.outgoingMessage) return tool.outgoingMessage(args, page);
  if (!page.chat) return undefined;
  // During a support chat, whatever the page tools type may end up in the chat (its composer, a form it opened),
  // and a click on one of its quick replies sends that reply: each is judged as a message to support.
  if (fillsField(tool.name)) return PAGE_INPUT_TEXT[tool.name]?.(args);
  const norm = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();
  if ((tool.name === 'click' || tool.name === 'press') && elementName !== undefined && page.chat.choices.some((c) => norm(c) === norm(elementName))) return elementName;
  return undefined;
}

function checkChatMessage(message: string, input: GateInput, findings: RiskFindings, result: Partial<Classification>): void {
  const { vault, config, page } = input;
  const found = findUnsharedPersonalData(vault.resolve(message), config.allowedFacts, vault);
  if (found.length > 0) {
    const kinds = [...new Set(found.map((f) => personalKindText(f.kind)))].join(' and ');
    result.forbidden = `the message contains ${kinds}, which is not among the facts the user allowed Deputy to share, so it was not sent`;
    result.askUser = `Deputy was about to send the support chat ${kinds}, which you did not list as a fact it may share, so it did not send it. The message was: "${message.slice(0, 500)}". What should Deputy do instead?`;
  }
  for (const commitment of detectCommitments(message, page.chat?.lastFromThem ?? null)) addRisk(findings, commitment.risk, commitment.reason);
}

/** Classes one tool call from its declared risk, its arguments, the element it targets and what it will do. */
export function classifyToolCall(input: GateInput): Classification {
  const { tool, args, page, vault, config } = input;
  const findings: RiskFindings = { classes: new Set<RiskClass>([tool.risk]), reasons: [] };
  const mustAsk: string[] = [];
  const result: Partial<Classification> = {};
  const startOrigin = originOf(input.startUrl);
  const scope: ApprovedScope = { origins: [...(startOrigin ? [startOrigin] : []), ...(input.taskSites ?? [])], patterns: config.allowedSites };
  // A task that started on a browser page (the New Tab page, a blank tab) has no site yet: the first site it opens
  // becomes its site (see runLoop), and until then there is nothing to leave.
  const armed = scope.origins.length > 0 || scope.patterns.length > 0;
  const approved = (url: string): boolean => !armed || inScope(url, scope);

  const ref = typeof args.ref === 'number' ? args.ref : undefined;
  const element = ref === undefined ? undefined : page.element(ref);
  const effect = input.facts?.effect;
  // The label as the user sees it: a right-to-left override or an invisible character must not hide a risky word.
  const label = readableLabel(element?.name ?? '');
  const isList = tool.name === 'tabs' && args.action === 'list';
  if (isList) findings.classes = new Set(['read']);

  const outgoing = chatOutgoing(input, element?.name);
  // A placeholder in a read-only call (a search on the page, a question to the user) is never resolved, so it sends
  // nothing; a chat message is checked as a whole below (its placeholders may be facts the user allowed).
  const placeholders = tool.risk === 'read' || outgoing !== undefined ? [] : vault.placeholdersIn(JSON.stringify(args));
  const personalData = placeholders.length > 0;

  // Where the action happens: the frame the element is in, else the page.
  const actsOnUrl = effect?.frameUrl ?? (element?.origin ? `${element.origin}/` : page.url);
  const actsOn = originOf(actsOnUrl);
  if (actsOn) result.actsOn = actsOn;

  if (COMMITTING.has(tool.name) && !(tool.name === 'press' && ref === undefined && !effect)) {
    if (effect) effectRisks(effect, label, findings);
    else if (tool.name !== 'type') wordRisks(label, findings);
  }
  // A dialog's question is judged as the label of what opened it; keeping a downloaded program always asks.
  const facts = inputRisks(tool.name, args, page);
  for (const text of facts.labels) wordRisks(text, findings);
  for (const { risk, reason } of facts.classes) addRisk(findings, risk, reason);
  // A prompt's answer goes to the page's own script, which decides where it goes: personal data in it always asks.
  if (tool.name === 'dialog') for (const p of placeholders) mustAsk.push(`it answers the page's prompt with {{${p}}}, and the page's own script decides where it goes`);
  const pressesEnter = (tool.name === 'press' && /(^|\+)Enter$/i.test(String(args.key))) || (tool.name === 'type' && args.submit === true);
  if (pressesEnter && !effect) {
    addRisk(findings, 'submit', 'it presses Enter, which usually submits');
    if (element && /message|chat|reply|comment|write/i.test(element.name)) addRisk(findings, 'send-message', 'it sends a message');
  }

  if (fillsField(tool.name) && element && outgoing === undefined) {
    const text = PAGE_INPUT_TEXT[tool.name]?.(args) ?? '';
    const field = { name: element.name, inputType: element.inputType, autocomplete: element.autocomplete };
    const fitting = placeholders.filter((p) => fieldFits(p, field));
    // Where the typed value goes from here: the form's address, or the page's own script when it is in no form.
    const form = effect?.form;
    const goes = form ? `; its form sends it to ${form.action} (${form.method.toUpperCase()})` : effect ? '; it is in no form, so the page decides where it goes' : '';
    for (const p of placeholders.filter((name) => !fitting.includes(name))) {
      mustAsk.push(`it types {{${p}}} into [${element.ref}] ${element.role} "${element.name.slice(0, 60)}", which is not the field for it${goes}`);
    }
    if (element.inputType === 'password' || /password/.test(element.autocomplete ?? '')) {
      if (/new-password/.test(element.autocomplete ?? '')) addRisk(findings, 'account', 'it types a new password');
      else if (fitting.length === 0) addRisk(findings, 'account', 'it types into a password field something that is not your password');
    } else if (fitting.length === 0 && /\d/.test(text) && isPaymentField({ name: '', label: element.name, autocomplete: element.autocomplete ?? '', type: element.inputType ?? '' })) {
      addRisk(findings, 'money', `it types into a payment field ("${element.name.slice(0, 60)}")`);
    }
  }

  destinationOf(input, { effect, placeholders, approved, scope, armed, actsOnUrl }, findings, mustAsk, result);

  if (tool.risk !== 'read' && !isList && ELEMENT_TOOLS.has(tool.name) && actsOn && matchesAny(actsOnUrl, config.deniedSites)) {
    result.forbidden = `${originLabel(actsOn)} is on the list of sites Deputy must not act on`;
  } else if (tool.risk !== 'read' && ELEMENT_TOOLS.has(tool.name) && originOf(actsOnUrl) !== null && !approved(actsOnUrl)) {
    // A frame of another site, or a page a link led to: acting there needs the user, like going there.
    result.leavesApprovedSites = true;
    const inFrame = actsOn !== originOf(page.url);
    findings.reasons.push(`it acts ${inFrame ? 'inside a frame from' : 'on'} ${originLabel(actsOn ?? actsOnUrl)}, outside the approved sites (${scopeText(scope) || 'none yet'})`);
  }

  // A drag is judged where it lets go as well as where it starts: the drop target gets what it carries.
  const drop = input.facts?.drop;
  if (drop && DROP_TOOLS.has(tool.name) && result.forbidden === undefined) {
    judgeDrop(drop, { from: actsOn, approved, scope, deniedSites: config.deniedSites }, findings, mustAsk, result);
  }

  if (tool.name === 'tabs' && (args.action === 'switch' || args.action === 'close') && typeof args.tabId === 'number' && page.ownTabs && !page.ownTabs.includes(args.tabId)) {
    mustAsk.push(`it ${args.action === 'switch' ? 'switches to' : 'closes'} tab ${args.tabId}, which this task did not open`);
    if (args.action === 'close') addRisk(findings, 'irreversible', 'closing one of your own tabs loses what it shows');
  }

  // A chat tool writes into the chat itself, in whichever frame holds it (a vendor's widget is often another site's
  // frame): the chat's words are what it answers, and what it sends is judged as a message to support below.
  if (tool.risk !== 'read' && !tool.outgoingMessage) {
    const borrowed = borrowedAuthority({
      tool: tool.name,
      pageUrl: page.url,
      frameOrigins: page.frameOrigins,
      earlierFrameOrigins: page.earlierFrameOrigins,
      element,
      effect,
      classes: findings.classes,
      fills: fillsField(tool.name),
      url: tool.name === 'navigate' && typeof args.url === 'string' ? args.url : undefined,
    });
    if (borrowed) mustAsk.push(borrowed);
  }
  if (outgoing !== undefined) checkChatMessage(outgoing, input, findings, result);
  // A case's written escalation leaves through the site's own form: its sending always waits for the user, who reads
  // the draft on the card (what was typed is judged above, field by field, like any message to support).
  if (page.chat?.draft !== undefined && effect?.submits && effect.form) {
    addRisk(findings, 'send-message', 'it sends a message');
    mustAsk.push(`${DRAFT_SENDING}:\n${page.chat.draft.slice(0, 2500)}`);
  }
  if (personalData) findings.reasons.push(`it uses personal data (${placeholders.map((p) => `{{${p}}}`).join(', ')})`);

  const classification: Classification = {
    classes: [...findings.classes],
    // One reason said once: two signals can find the same thing (a label and the form's effect).
    reasons: [...new Set([...findings.reasons, ...mustAsk])],
    personalData,
    leavesApprovedSites: result.leavesApprovedSites ?? false,
    mustAsk,
    ...(result.forbidden !== undefined ? { forbidden: result.forbidden } : {}),
    ...(result.askUser !== undefined ? { askUser: result.askUser } : {}),
    ...(result.destination !== undefined ? { destination: result.destination } : {}),
    ...(result.sends !== undefined ? { sends: result.sends } : {}),
    ...(result.actsOn !== undefined ? { actsOn: result.actsOn } : {}),
    planApproved: input.plan !== null,
  };
  if (tool.name === 'update_plan') {
    const plan = args as unknown as Plan;
    if (planStepsChanged(input.plan, plan)) classification.newPlan = plan;
  }
  return classification;
}

const CONSEQUENCES: Partial<Record<RiskClass, string>> = {
  money: 'It may spend your money.',
  account: 'It changes your account.',
  irreversible: 'It cannot be undone.',
  commitment: 'It agrees to something on your behalf.',
  'send-message': 'It sends a message.',
};

/** What the action does, in a sentence or two for the approval card. */
export function consequenceOf(c: Classification): string {
  const parts: string[] = [];
  if (c.destination && c.sends) {
    const fields = c.sends.fields.length > 0 ? `the fields ${c.sends.fields.slice(0, 12).join(', ')}` : 'a request';
    parts.push(`It sends ${fields} to ${originLabel(c.destination)} (${c.sends.method.toUpperCase()}).`);
  } else if (c.destination) parts.push(`It takes you to ${originLabel(c.destination)}.`);
  for (const risk of c.classes) if (CONSEQUENCES[risk]) parts.push(CONSEQUENCES[risk]);
  if (c.personalData) parts.push('It types your personal data into the page.');
  return parts.join(' ') || 'It acts on the page.';
}

/** The origin "Approve for site" would approve: the destination (or the frame acted in), for low-risk actions only. */
function siteApprovalOf(c: Classification): string | null {
  if (c.classes.some((risk) => ALWAYS_ASK_CLASSES.has(risk)) || c.personalData || c.mustAsk.length > 0) return null;
  if (c.destination && !c.sends) return c.destination;
  if (c.leavesApprovedSites && !c.destination && c.actsOn) return c.actsOn;
  return null;
}

const RISK_WORDS: Partial<Record<RiskClass, string>> = {
  'send-message': 'it sends a message',
  money: 'it may spend your money',
  account: 'it changes your account',
  irreversible: 'it cannot be undone',
  program: 'it keeps a program on this computer',
  commitment: 'it agrees to something for you',
};
const riskWords = (risk: RiskClass): string => RISK_WORDS[risk] ?? risk;

/** Decides one call: deny what is forbidden, ask for what the mode or the risk requires, allow the rest. */
export function decide(config: PolicyConfig, classification: Classification): GateVerdict {
  const verdict = (decision: Decision, reason: string): GateVerdict => ({
    ...classification,
    decision,
    reason,
    consequence: consequenceOf(classification),
    siteApproval: siteApprovalOf(classification),
  });
  if (classification.forbidden !== undefined) return verdict('deny', `Not allowed: ${classification.forbidden}.`);
  if (config.mode === 'ask' && classification.newPlan) {
    return verdict('ask', `Approve this plan?\n${formatPlan(classification.newPlan)}`);
  }
  const risky = classification.classes.filter((c) => ALWAYS_ASK_CLASSES.has(c));
  if (risky.length > 0 || classification.leavesApprovedSites || classification.mustAsk.length > 0) {
    return verdict('ask', `Needs your approval because ${classification.reasons.join('; ') || risky.map(riskWords).join(', ')}.`);
  }
  if (config.mode === 'ask' && classification.classes.some((c) => c !== 'read')) {
    if (config.approveEachStep) return verdict('ask', 'You chose to approve each step.');
    if (!classification.planApproved) return verdict('ask', 'No plan is approved yet, so each step asks.');
    // The approved plan covers routine steps only: a message, a payment or anything else of another kind asks.
    const beyond = beyondPlan(classification.classes);
    if (beyond.length > 0) return verdict('ask', `Needs your approval because ${classification.reasons.join('; ') || beyond.map(riskWords).join(', ')}.`);
    return verdict('allow', 'Covered by the plan you approved.');
  }
  return verdict('allow', 'Allowed by the task mode.');
}

export function gateToolCall(input: GateInput): GateVerdict {
  return decide(input.config, classifyToolCall(input));
}

/** Adds caution from another judge (an optional classifier call): classes and reasons are only ever added. */
export function withCaution(classification: Classification, extra: { classes: RiskClass[]; reasons: string[] }): Classification {
  const classes = [...new Set([...classification.classes, ...extra.classes])];
  return { ...classification, classes, reasons: [...classification.reasons, ...extra.reasons] };
}

import type { ActionEffect, FieldFact, FormFact } from './action-effect';
import type { RiskClass } from './risk-class';
import { readableLabel } from './label-text';
import {
  LOGIN_WORDS,
  PLAN_WORDS,
  PRICE,
  RECURRING,
  SEND_WORDS,
  SUBMIT_WORDS,
  saysAccount,
  saysCart,
  saysDelete,
  saysMoney,
  inAccountArea,
  urlKind,
} from './risk-words';

/** Classes found for one action, each with why, in words the approval shows. */
export interface RiskFindings {
  classes: Set<RiskClass>;
  reasons: string[];
}

export function addRisk(findings: RiskFindings, risk: RiskClass, reason: string): void {
  if (findings.classes.has(risk) && risk !== 'money' && risk !== 'account' && risk !== 'irreversible') return;
  if (!findings.reasons.includes(reason)) findings.reasons.push(reason);
  findings.classes.add(risk);
}

const short = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
};

export function isPaymentField(field: Pick<FieldFact, 'name' | 'label' | 'autocomplete' | 'type'>): boolean {
  const hint = `${field.name} ${field.label}`;
  return (
    /^cc-|\bcc-/.test(field.autocomplete) ||
    /\b(?:card ?(?:number|no)|cardnumber|ccnum|cc-?number|cvv|cvc|csc|security code|expir|iban|account number|routing|sort code|kartennummer|numéro de carte|número de tarjeta|カード番号|卡号)\b/i.test(hint)
  );
}

function isPasswordField(field: FieldFact): boolean {
  return field.type === 'password' || /password/.test(field.autocomplete);
}

function isEmailField(field: FieldFact): boolean {
  return field.type === 'email' || /(^|\s)email$/.test(field.autocomplete) || /\be-?mail\b/i.test(`${field.name} ${field.label}`);
}

/** A sign-in form: one password field that is not a new one, on a login page or with a login button. */
function isLoginForm(form: FormFact, label: string, pageUrl: string): boolean {
  const passwords = form.fields.filter(isPasswordField);
  if (passwords.length !== 1 || passwords.some((f) => /new-password/.test(f.autocomplete))) return false;
  return urlKind(form.action) === 'login' || urlKind(pageUrl) === 'login' || LOGIN_WORDS.test(label) || LOGIN_WORDS.test(form.submitLabel);
}

/**
 * Classes an action by what it does, from the page's structure: the form it submits (its fields, method and
 * address), the page it is on, prices near it, and its wording in many languages as one signal among these. Enter in
 * a field and typing with submit arrive here as the submission they cause.
 */
export function effectRisks(effect: ActionEffect, shownLabel: string, findings: RiskFindings): void {
  const label = readableLabel(shownLabel);
  const elementText = readableLabel(effect.element.text);
  const text = (label.includes(elementText) ? label : elementText.includes(label) ? elementText : `${label} ${elementText}`).trim();
  const form = effect.form;
  const submits = effect.submits && form !== undefined;
  const pageKind = urlKind(effect.frameUrl);
  const actionKind = form ? urlKind(form.action) : null;
  const accountArea = inAccountArea(effect.frameUrl) || (form !== undefined && inAccountArea(form.action));
  const isButton = effect.element.tag === 'BUTTON' || /^(?:submit|button|image)$/.test(effect.element.type) || effect.submits;
  const cart = saysCart(text);
  const own = short(text) || 'a control without a label';

  if (submits) {
    addRisk(findings, 'submit', `it submits a form (${form.method.toUpperCase()} to ${form.action})`);
    if (form.fields.some(isPaymentField) && !cart) addRisk(findings, 'money', 'it submits a form with payment fields');
    if (isLoginForm(form, text, effect.frameUrl)) {
      // Signing in changes nothing about the account; the password is typed through its placeholder.
    } else if (form.fields.filter(isPasswordField).length > 0) {
      addRisk(findings, 'account', 'it submits a form that sets a password');
    } else if (accountArea && form.fields.some(isEmailField)) {
      addRisk(findings, 'account', "it saves an account's email address");
    } else if (accountArea && form.method === 'post' && !cart) {
      // Any other form the account settings post (a plan, a name, notifications, closing it) changes the account.
      addRisk(findings, 'account', `it saves a form in the account's settings (POST to ${form.action})`);
    }
    if (accountArea && form.fields.some(isPaymentField)) addRisk(findings, 'account', "it changes the account's payment method");
    if ((actionKind === 'checkout' || pageKind === 'checkout') && form.method === 'post' && !cart) {
      addRisk(findings, 'money', `it submits a form on a checkout or payment page (${form.action})`);
    }
    if (actionKind === 'destructive') addRisk(findings, 'irreversible', `it submits to a deletion (${form.action})`);
    if (form.fields.some((f) => f.type === 'textarea') && SEND_WORDS.test(text)) addRisk(findings, 'send-message', `it sends a message ("${own}")`);
  }
  if (isButton && !cart && PRICE.test(text)) addRisk(findings, 'money', `its label names a price ("${own}")`);
  if (isButton && !cart && pageKind === 'checkout' && (PRICE.test(effect.context) || effect.element.text.trim() === '')) {
    addRisk(findings, 'money', `it is a button on a checkout or payment page${effect.element.text.trim() === '' ? ' without words on it' : ' near a price'}`);
  }
  if (effect.link && urlKind(effect.link.url) === 'destructive') addRisk(findings, 'irreversible', `its link leads to a deletion (${effect.link.url})`);
  if (effect.element.danger && (submits || isButton) && !cart) addRisk(findings, 'irreversible', `the page marks it as destructive ("${own}")`);
  if (effect.options) {
    for (const option of effect.options) {
      if (PRICE.test(option) && (RECURRING.test(option) || PLAN_WORDS.test(option) || pageKind === 'account' || pageKind === 'checkout')) {
        addRisk(findings, 'money', `it chooses a paid option ("${short(option)}")`);
      }
    }
  }
  wordRisks(text, findings);
}

/**
 * The wording signal alone, for actions whose effect is unknown (the page did not answer) and on top of the
 * structure for those whose effect is known.
 */
export function wordRisks(shownLabel: string, findings: RiskFindings): void {
  const label = readableLabel(shownLabel);
  if (label.trim() === '') return;
  const own = short(label);
  if (saysMoney(label) && !saysCart(label)) addRisk(findings, 'money', `it looks like it spends money ("${own}")`);
  if (saysAccount(label)) addRisk(findings, 'account', `it changes the account ("${own}")`);
  if (saysDelete(label)) addRisk(findings, 'irreversible', `it cannot be undone ("${own}")`);
  if (SEND_WORDS.test(label)) addRisk(findings, 'send-message', `it sends a message ("${own}")`);
  if (SUBMIT_WORDS.test(label)) addRisk(findings, 'submit', `it submits a form ("${own}")`);
}

import type { ActionEffect } from './action-effect';
import { fillsField } from './page-input-tools';
import type { Classification, GateInput } from './gate-types';
import type { RiskFindings } from './risk-signals';
import { type ApprovedScope, matchesAny, originLabel, originOf, scopeText } from './site-list';

interface DestinationContext {
  effect: ActionEffect | undefined;
  placeholders: string[];
  approved: (url: string) => boolean;
  scope: ApprovedScope;
  armed: boolean;
  actsOnUrl: string;
}

interface Target {
  url: string;
  how: string;
  sends?: { method: string; fields: string[] };
}

function targetOf(input: GateInput, effect: ActionEffect | undefined): Target | undefined {
  const { tool, args } = input;
  if (typeof args.url === 'string' && (tool.name === 'navigate' || (tool.name === 'tabs' && args.action === 'new'))) return { url: args.url, how: 'opens' };
  if (!effect) return undefined;
  if (effect.submits && effect.form) {
    const form = effect.form;
    return { url: form.action, how: `submits a form${form.newWindow ? ' in a new window' : ''} to`, sends: { method: form.method, fields: form.fields.map((f) => f.name || f.label).filter(Boolean) } };
  }
  if (effect.link) return { url: effect.link.url, how: effect.link.newWindow ? 'opens in a new tab' : 'follows a link to' };
  return undefined;
}

/**
 * Where the action carries the user or the user's data: the address it opens, the link it follows (the address the
 * page shows for it now; a page that rewrites it on the click is caught by the browser's egress guard), the form it
 * submits and the fields that go with it, or, for typing personal data, where that field's form will send it. Anything
 * outside the approved origins needs the user, and the approval names the destination.
 */
export function destinationOf(input: GateInput, context: DestinationContext, findings: RiskFindings, mustAsk: string[], result: Partial<Classification>): void {
  const { config, tool } = input;
  const { effect, placeholders, approved, scope, armed } = context;
  if (typeof input.args.url === 'string' && /\{\{|%7B%7B/i.test(input.args.url)) {
    result.forbidden = 'it would put personal data into a web address, which sends it to that site';
    return;
  }
  const form = effect?.form;
  if (fillsField(tool.name) && placeholders.length > 0 && form && !effect.submits) {
    // What is typed now leaves with the form later: where the form sends it decides.
    const origin = originOf(form.action);
    if (origin === null) return;
    if (matchesAny(form.action, config.deniedSites)) {
      result.forbidden = `the form sends what is typed to ${originLabel(origin)}, a site Deputy must not send anything to`;
    } else if (armed && !approved(form.action)) {
      result.destination = origin;
      result.sends = { method: form.method, fields: form.fields.map((f) => f.name || f.label).filter(Boolean) };
      mustAsk.push(`the form sends what is typed to ${originLabel(origin)} (${form.method.toUpperCase()}), outside the approved sites`);
    }
    return;
  }
  const target = targetOf(input, effect);
  // Read as the browser reads it: " https://evil.test" (leading space) and "HTTPS:evil.test" go to a web page too.
  if (!target) return;
  const origin = originOf(target.url);
  if (origin === null) return;
  if (matchesAny(target.url, config.deniedSites)) {
    result.forbidden = `${target.url} is on the list of sites Deputy must not open`;
    return;
  }
  if (armed && !approved(target.url)) {
    result.leavesApprovedSites = true;
    result.destination = origin;
    if (target.sends) result.sends = target.sends;
    findings.reasons.push(`it ${target.how} ${originLabel(origin)}, outside the approved sites (${scopeText(scope)})`);
  }
}

import type { Plan } from './plan';
import type { RiskClass } from './risk-class';
import { matchesAny, originOf } from './site-list';

/**
 * What approving a plan in ask-first mode approves: its routine steps (reading, clicking, typing, opening pages and
 * submitting ordinary forms) on the site the task starts on and the sites the plan names. Anything of another kind
 * (paying, changing the account, sending a message, deleting, keeping a program, agreeing for the user) still asks,
 * step by step, and so does going anywhere the plan did not name.
 */
export const PLAN_ROUTINE: ReadonlySet<RiskClass> = new Set(['read', 'act', 'navigate', 'submit']);

/** A host as people and models write it: letters, digits, dots, dashes, an optional port; no wildcard, no path. */
const BARE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?::\d{1,5})?$/i;

/**
 * The origins a plan names, as the gate compares them. A bare host takes the scheme of the page the task started on
 * (so `shop.test:8080` on an http task is `http://shop.test:8080`, and `docs.example` on an https one is
 * `https://docs.example`). A name that is no site (a wildcard, a single word that is not localhost, a path alone) is
 * dropped rather than guessed at, and a denied site is never approved this way: the model writes the plan, and a
 * plan can only name exact origins for the user to see and approve.
 */
export function planOrigins(plan: Pick<Plan, 'sites'> | null, startUrl: string, deniedSites: readonly string[] = []): string[] {
  const scheme = /^http:/i.test(startUrl) ? 'http' : 'https';
  const origins: string[] = [];
  for (const raw of plan?.sites ?? []) {
    const site = raw.trim();
    let origin: string | null = null;
    if (/^https?:\/\//i.test(site)) origin = originOf(site);
    else if (BARE_HOST.test(site)) {
      const host = site.split(':')[0] ?? '';
      if (host.includes('.') || host.toLowerCase() === 'localhost') origin = originOf(`${scheme}://${site}`);
    }
    if (origin === null || /\*/.test(origin) || matchesAny(`${origin}/`, deniedSites)) continue;
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/** The classes of a step that the approved plan does not cover (they ask even with the plan approved). */
export function beyondPlan(classes: readonly RiskClass[]): RiskClass[] {
  return classes.filter((risk) => !PLAN_ROUTINE.has(risk));
}

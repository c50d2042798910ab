import type { ConsentApplied, ConsentChoice } from '../../platform/consent-in-page';

/** What the tab environment needs to answer cookie banners: the user's choice, and a way to apply it in a tab. */
export interface CookieConsentDeps {
  choice: () => Promise<ConsentChoice | 'leave'>;
  apply: (tabId: number, choice: ConsentChoice) => Promise<ConsentApplied | null>;
}

/** The line the step list shows for a banner Deputy answered (the model never sees it). */
export function consentNote(applied: ConsentApplied): string {
  const what = applied.choice === 'reject' ? 'rejected all but essential cookies' : 'accepted all cookies';
  const how = applied.method === 'api' ? `through ${applied.manager}'s own consent API` : `with ${applied.manager}'s own ${applied.choice} button`;
  return `Cookie banner (${applied.manager}): ${what}, ${how}, as set in Settings.`;
}

/**
 * Answers the page's cookie banner before the model reads it, as the user's setting says; returns the step list's
 * line, or null when there was none to answer (or the user leaves banners to the task). Never fails the step: a
 * manager that cannot be reached leaves its banner in the snapshot, where the model can still deal with it.
 */
export async function answerCookieBanner(deps: CookieConsentDeps, tabId: number): Promise<string | null> {
  try {
    const choice = await deps.choice();
    if (choice === 'leave') return null;
    const applied = await deps.apply(tabId, choice);
    return applied ? consentNote(applied) : null;
  } catch {
    return null;
  }
}

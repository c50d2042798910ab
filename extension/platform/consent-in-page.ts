import type { InjectedFunc } from './main-world';

/**
 * Cookie banners, answered outside the model: the page's consent manager is recognised and told the user's choice
 * through its own API, or through its own reject (or accept) button where it has no API for it, before the model
 * reads the page. The banner's parts are then marked `data-deputy-consent`, and the snapshot leaves them out.
 *
 * `applyConsentInPage` runs in the page's own world (the managers' APIs are page globals) in every frame, so it is
 * self-contained: chrome.scripting serializes it. The managers and what each one offers:
 * - IAB TCF v2 (`__tcfapi`): the standard API reads consent only, so it names the manager (`ping` gives cmpId) and
 *   the choice goes through that manager's own API or button.
 * - OneTrust `OneTrust.RejectAll()` / `AllowAll()`; Cookiebot `Cookiebot.submitCustomConsent(preferences,
 *   statistics, marketing)`; Didomi `Didomi.setUserDisagreeToAll()` / `setUserAgreeToAll()`; Usercentrics
 *   `UC_UI.denyAllConsents()` / `acceptAllConsents()` (v3: `__ucCmp`); Klaro `klaro.getManager().changeAll(bool)` then
 *   `saveAndApplyConsents()`; Osano `Osano.cm.denyAll()` / `acceptAll()` where present.
 * - By their own buttons: Quantcast Choice, TrustArc, Sourcepoint (its message frame), Complianz, CookieYes, Osano,
 *   and the button fallbacks of the managers above.
 */
export type ConsentChoice = 'reject' | 'accept';

export interface ConsentApplied {
  manager: string;
  /** `api`: through the manager's own function; `button`: its own reject or accept button was clicked. */
  method: 'api' | 'button';
  choice: ConsentChoice;
  /** The IAB TCF CMP id the page reports, when it has the TCF API. */
  tcfCmpId?: number;
}

export function applyConsentInPage(choice: ConsentChoice): ConsentApplied | null {
  type Fn = (...args: unknown[]) => unknown;
  const w = globalThis as unknown as Record<string, unknown> & { __deputyConsent?: string };
  if (w.__deputyConsent) return null;
  const reject = choice === 'reject';
  const get = (path: string): unknown => {
    let value: unknown = globalThis;
    for (const key of path.split('.')) {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
      try {
        value = (value as Record<string, unknown>)[key];
      } catch {
        return undefined;
      }
    }
    return value;
  };
  const call = (path: string, ...args: unknown[]): boolean => {
    const dot = path.lastIndexOf('.');
    const owner = dot < 0 ? globalThis : get(path.slice(0, dot));
    const fn = get(path);
    if (typeof fn !== 'function') return false;
    try {
      (fn as Fn).apply(owner, args);
      return true;
    } catch {
      return false;
    }
  };
  const shown = (el: Element | null): el is HTMLElement => {
    if (!(el instanceof HTMLElement)) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const deepQuery = (selector: string): Element | null => {
    const found = document.querySelector(selector);
    if (found) return found;
    // Some managers (Usercentrics) draw in an open shadow root.
    for (const host of Array.from(document.querySelectorAll('#usercentrics-root, #usercentrics-cmp-ui, [id^="cmp"], aside'))) {
      const inner = host.shadowRoot?.querySelector(selector);
      if (inner) return inner;
    }
    return null;
  };
  interface Manager {
    name: string;
    present: string[];
    banner: string[];
    api?: () => boolean;
    rejectButton: string[];
    acceptButton: string[];
  }
  const managers: Manager[] = [
    {
      name: 'OneTrust',
      present: ['OneTrust', 'Optanon'],
      banner: ['#onetrust-consent-sdk', '#onetrust-banner-sdk'],
      api: () => call(reject ? 'OneTrust.RejectAll' : 'OneTrust.AllowAll'),
      rejectButton: ['#onetrust-reject-all-handler'],
      acceptButton: ['#onetrust-accept-btn-handler'],
    },
    {
      name: 'Cookiebot',
      present: ['Cookiebot'],
      banner: ['#CybotCookiebotDialog'],
      // submitCustomConsent(preferences, statistics, marketing): necessary cookies are always on.
      api: () => call('Cookiebot.submitCustomConsent', !reject, !reject, !reject) && (call('Cookiebot.hide') || true),
      rejectButton: ['#CybotCookiebotDialogBodyButtonDecline'],
      acceptButton: ['#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll', '#CybotCookiebotDialogBodyButtonAccept'],
    },
    {
      name: 'Didomi',
      present: ['Didomi'],
      banner: ['#didomi-host', '#didomi-popup'],
      api: () => call(reject ? 'Didomi.setUserDisagreeToAll' : 'Didomi.setUserAgreeToAll'),
      rejectButton: ['#didomi-notice-disagree-button'],
      acceptButton: ['#didomi-notice-agree-button'],
    },
    {
      name: 'Usercentrics',
      present: ['UC_UI', '__ucCmp'],
      banner: ['#usercentrics-root', '#usercentrics-cmp-ui'],
      // Version 2 (UC_UI) and version 3 (__ucCmp) of the browser UI.
      api: () =>
        (call(reject ? 'UC_UI.denyAllConsents' : 'UC_UI.acceptAllConsents') && (call('UC_UI.closeCMP') || true)) ||
        (call(reject ? '__ucCmp.denyAllConsents' : '__ucCmp.acceptAllConsents') && (call('__ucCmp.closeCmp') || true)),
      rejectButton: ['[data-testid="uc-deny-all-button"]', '#deny'],
      acceptButton: ['[data-testid="uc-accept-all-button"]', '#accept'],
    },
    {
      name: 'Klaro',
      present: ['klaro'],
      banner: ['.klaro .cookie-notice', '.klaro .cookie-modal', '#klaro'],
      api: () => {
        const manager = (get('klaro.getManager') as Fn | undefined)?.call(get('klaro')) as { changeAll?: Fn; saveAndApplyConsents?: Fn } | undefined;
        if (!manager?.changeAll || !manager.saveAndApplyConsents) return false;
        manager.changeAll(!reject);
        manager.saveAndApplyConsents();
        return true;
      },
      rejectButton: ['.klaro .cn-decline'],
      acceptButton: ['.klaro .cm-btn-success'],
    },
    {
      name: 'Osano',
      present: ['Osano.cm'],
      banner: ['.osano-cm-window', '.osano-cm-dialog'],
      api: () => call(reject ? 'Osano.cm.denyAll' : 'Osano.cm.acceptAll'),
      rejectButton: ['.osano-cm-denyAll', '.osano-cm-button--type_denyAll'],
      acceptButton: ['.osano-cm-accept-all', '.osano-cm-button--type_accept'],
    },
    {
      name: 'Quantcast Choice',
      present: [],
      banner: ['.qc-cmp2-container', '#qc-cmp2-container'],
      rejectButton: ['.qc-cmp2-summary-buttons button[mode="secondary"]', '.qc-cmp2-footer button[mode="secondary"]'],
      acceptButton: ['.qc-cmp2-summary-buttons button[mode="primary"]'],
    },
    {
      name: 'TrustArc',
      present: ['truste'],
      banner: ['#truste-consent-track', '#consent_blackbar', '.truste_box_overlay'],
      rejectButton: ['#truste-consent-required'],
      acceptButton: ['#truste-consent-button'],
    },
    {
      name: 'Sourcepoint',
      present: ['_sp_'],
      banner: ['[id^="sp_message_container_"]', '.message-container'],
      // Sourcepoint's message is a frame of its own; this runs in it too. Choice type 13 rejects all, 11 accepts all.
      rejectButton: ['button.sp_choice_type_13', 'button[title="Reject all" i]'],
      acceptButton: ['button.sp_choice_type_11', 'button[title="Accept all" i]'],
    },
    {
      name: 'Complianz',
      present: ['complianz'],
      banner: ['#cmplz-cookiebanner-container', '.cmplz-cookiebanner'],
      rejectButton: ['.cmplz-cookiebanner .cmplz-deny'],
      acceptButton: ['.cmplz-cookiebanner .cmplz-accept'],
    },
    {
      name: 'CookieYes',
      present: [],
      banner: ['.cky-consent-container', '.cky-overlay'],
      rejectButton: ['.cky-btn-reject'],
      acceptButton: ['.cky-btn-accept'],
    },
  ];
  let tcfCmpId: number | undefined;
  const tcf = get('__tcfapi');
  if (typeof tcf === 'function') {
    try {
      // `ping` answers synchronously by the TCF v2 spec, with the CMP's registered id.
      (tcf as Fn)('ping', 2, (ping: { cmpId?: number } | null) => {
        if (typeof ping?.cmpId === 'number') tcfCmpId = ping.cmpId;
      });
    } catch {
      // A broken stub names no manager; the others are still recognised by their own globals and parts.
    }
  }
  // A banner is shown when it or a part of it has a box (a shadow host or a wrapper may have none of its own).
  const bannerShown = (el: Element | null): boolean =>
    el !== null && (shown(el) || Array.from(el.children).some(shown) || Array.from(el.shadowRoot?.children ?? []).some(shown));
  for (const manager of managers) {
    const banner = manager.banner.map((s) => deepQuery(s)).find((el) => el !== null) ?? null;
    // Only a banner on the screen is answered: a choice the user made before, on the site, stands.
    if (!bannerShown(banner)) continue;
    const global = manager.present.some((path) => get(path) !== undefined && get(path) !== null);
    let method: ConsentApplied['method'] | null = null;
    if (global && manager.api?.()) method = 'api';
    if (!method) {
      const button = (reject ? manager.rejectButton : manager.acceptButton).map((s) => deepQuery(s)).find((el) => shown(el));
      if (button) {
        button.click();
        method = 'button';
      }
    }
    if (!method) continue;
    for (const selector of manager.banner) for (const el of Array.from(document.querySelectorAll(selector))) el.setAttribute('data-deputy-consent', manager.name);
    w.__deputyConsent = manager.name;
    return { manager: manager.name, method, choice, ...(tcfCmpId === undefined ? {} : { tcfCmpId }) };
  }
  return null;
}

/** Applies the choice in every frame of the tab; the first frame that recognised a manager says what was done. */
export async function applyConsentInTab(tabId: number, choice: ConsentChoice, timeoutMs = 2000): Promise<ConsentApplied | null> {
  const running = chrome.scripting
    // At once, even on a page still loading: the default (document idle) would hold every step of a streaming page.
    .executeScript({ target: { tabId, allFrames: true }, world: 'MAIN', args: [choice], func: applyConsentInPage as unknown as InjectedFunc, injectImmediately: true })
    .then((results) => results.map((r) => r.result as ConsentApplied | null).find((r) => r !== null && r !== undefined) ?? null)
    .catch(() => null);
  const giveUp = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  return Promise.race([running, giveUp]);
}

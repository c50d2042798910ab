import type { ActionOutcome, ObservedElement, Observation } from '../../../../../shared/agent/environment';
import type { WebAction, WebEnvironment } from '../../../../../shared/agent/web-environment';

export interface FakeElement extends ObservedElement {
  /** Clicking it opens this page. */
  to?: string;
}

export interface FakePage {
  url: string;
  title: string;
  elements: FakeElement[];
  /** Page text shown after the elements (untrusted content: prompts injections live here). */
  body?: string;
}

export interface FakeWeb extends WebEnvironment {
  /** Every action the loop performed, with the real values it typed. */
  readonly actions: WebAction[];
  readonly observations: number;
  url(): string;
  value(url: string, ref: number): string | undefined;
}

/**
 * A small web of pages for the loop to drive: clicks follow links, typing fills fields (and shows their values in
 * the next snapshot, as a real page would), navigate and back move through history. Tests can override any action.
 */
export function createFakeWeb(pages: FakePage[], start: string, override?: (action: WebAction, web: FakeWeb) => ActionOutcome | undefined): FakeWeb {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const values = new Map<string, string>();
  const history: string[] = [start];
  const actions: WebAction[] = [];
  let observations = 0;
  const current = (): FakePage => byUrl.get(history.at(-1) ?? '') ?? { url: history.at(-1) ?? '', title: 'Not found', elements: [] };

  const snapshot = (page: FakePage): string =>
    [
      ...page.elements.map((e) => {
        const value = values.get(`${page.url}#${e.ref}`);
        return `[${e.ref}] ${e.role} "${e.name}"${value === undefined ? '' : ` value="${value}"`}`;
      }),
      ...(page.body ? [page.body] : []),
    ].join('\n');

  const go = (url: string): ActionOutcome => {
    history.push(url);
    return { ok: true, message: `Opened ${url}; the page is now "${current().title}".`, changed: true, evidence: [`url: ${url}`] };
  };

  const web: FakeWeb = {
    actions,
    get observations() {
      return observations;
    },
    url: () => current().url,
    value: (url, ref) => values.get(`${url}#${ref}`),
    observe(): Promise<Observation> {
      observations += 1;
      const page = current();
      return Promise.resolve({
        url: page.url,
        title: page.title,
        text: snapshot(page),
        elements: page.elements.map(({ to: _to, ...element }) => element),
        tabs: [{ id: 1, title: page.title, url: page.url, active: true }],
      });
    },
    act(action: WebAction): Promise<ActionOutcome> {
      actions.push(action);
      const custom = override?.(action, web);
      if (custom) return Promise.resolve(custom);
      const page = current();
      const element = 'ref' in action && action.ref !== undefined ? page.elements.find((e) => e.ref === action.ref) : undefined;
      if ('ref' in action && action.ref !== undefined && !element) {
        return Promise.resolve({ ok: false, message: `There is no element [${action.ref}] on this page any more; look at the new snapshot.`, changed: false });
      }
      switch (action.kind) {
        case 'click':
          if (element?.to) return Promise.resolve(go(element.to));
          return Promise.resolve({ ok: true, message: `Clicked [${action.ref}]; nothing on the page changed.`, changed: false });
        case 'type':
          values.set(`${page.url}#${action.ref}`, action.text);
          return Promise.resolve({ ok: true, message: `Typed into [${action.ref}]; its value is now set.`, changed: true });
        case 'navigate':
          return Promise.resolve(go(action.url));
        case 'back':
          if (history.length > 1) history.pop();
          return Promise.resolve({ ok: true, message: `Went back to ${current().url}.`, changed: true });
        default:
          return Promise.resolve({ ok: true, message: `${action.kind} done.`, changed: false });
      }
    },
  };
  return web;
}

import type { ParamsOf, ResultOf, UiMethods } from '../../../shared/protocol';
import type { PageAgent } from './page-agent';

type Handler<K extends keyof UiMethods> = (params: ParamsOf<UiMethods, K>) => Promise<ResultOf<UiMethods, K>>;

/** The page agent for the extension pages: a snapshot of a tab, an action in it. */
export function createPageUiHandlers(page: PageAgent): {
  'page.snapshot': Handler<'page.snapshot'>;
  'page.act': Handler<'page.act'>;
  'page.highlight': Handler<'page.highlight'>;
} {
  return {
    'page.snapshot': async ({ tabId, mode, maxTokens }) => {
      const shot = await page.snapshot(tabId, { mode, maxTokens });
      return {
        text: shot.text,
        url: shot.url,
        title: shot.title,
        elements: shot.elements.map(({ ref, role, name, frameId }) => ({ ref, role, name, frameId })),
      };
    },
    'page.highlight': async ({ tabId, ref, durationMs }) => ({ found: await page.highlight(tabId, ref, durationMs) }),
    'page.act': async ({ tabId, action, settleMs }) => {
      const outcome = await page.act(tabId, action, settleMs === undefined ? {} : { settleMs });
      return { ok: outcome.ok, message: outcome.message, changed: outcome.changed, evidence: outcome.evidence };
    },
  };
}

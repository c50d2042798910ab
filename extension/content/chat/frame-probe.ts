import type { FrameProbe } from '../../../shared/protocol';
import type { ChatProfile } from './chat-profile';
import { deepDom, type ShadowRootOf } from './deep-query';
import { findGenericChat } from './generic-chat';
import { matchProfile } from './profile-match';

export interface ProbeDeps {
  doc: Document;
  shadowRootOf: ShadowRootOf;
  /** The extension frame id of the frame an iframe element holds. */
  frameIdOf: (frame: HTMLIFrameElement | HTMLFrameElement) => number | null;
  profiles: readonly ChatProfile[];
}

/**
 * What this frame shows of any chat widget: script hosts, each vendor's markers (in the page and in shadow roots),
 * which child frames the vendor's iframe markers hold, and the structural fallback's verdict.
 */
export function probeFrame(deps: ProbeDeps): FrameProbe {
  const { doc, shadowRootOf, profiles } = deps;
  const dom = deepDom(doc, shadowRootOf);
  const scriptHosts = [
    ...new Set(
      dom.queryAll('script[src]').flatMap((script) => {
        try {
          return [new URL(script.getAttribute('src') ?? '', doc.baseURI).hostname];
        } catch {
          return [];
        }
      }),
    ),
  ].filter((host) => host !== '');
  let selectors = 0;
  const cache = new Map<string, boolean>();
  const has = (selector: string): boolean => {
    let hit = cache.get(selector);
    if (hit === undefined) {
      selectors += 1;
      hit = dom.query(selector) !== null;
      cache.set(selector, hit);
    }
    return hit;
  };
  const vendors: FrameProbe['vendors'] = [];
  for (const profile of profiles) {
    const evidence = matchProfile(profile, { has, scriptHosts });
    if (evidence.length === 0) continue;
    const childFrames = profile.frames.flatMap((selector) =>
      dom.queryAll(selector).flatMap((element) => {
        const frames = element instanceof HTMLIFrameElement ? [element] : [...element.querySelectorAll('iframe')];
        return frames.map((frame) => deps.frameIdOf(frame)).filter((id): id is number => id !== null);
      }),
    );
    const ui = profile.uiMarkers.some(has);
    vendors.push({ vendor: profile.id, evidence, ui, childFrames: [...new Set(childFrames)] });
  }
  const generic = findGenericChat(dom, shadowRootOf);
  const view = doc.defaultView;
  return {
    url: doc.location.href,
    top: view !== null && view === view.top,
    vendors,
    generic: generic ? { score: generic.score, reasons: generic.reasons } : null,
    scriptHosts: scriptHosts.slice(0, 50),
    checked: { selectors, shadowRoots: dom.roots.length - 1, elements: dom.elements },
  };
}

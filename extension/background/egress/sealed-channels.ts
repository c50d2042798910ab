import type { DnrRule } from '../../platform/egress-rules';
import { defaultPort, parseWebAddress } from '../../../shared/agent/web-address';

/**
 * The channels whose content Deputy cannot read, closed to unapproved origins for a task's tabs while a secret the
 * task typed is on their pages. Derived from the ways a document, frame or worker can send bytes:
 *
 * - readable through the debugger's request interception (see secret-egress.ts): navigations and form posts, fetch,
 *   XHR, sendBeacon, the `ping` attribute, img/script/link/iframe/video/audio/object sources, CSS url() and @import,
 *   fonts, prefetch/preload/preconnect, EventSource, dedicated/shared/service workers and their own requests (the
 *   worker targets are attached too), window.open'd windows (the tab joins the task), a cross-origin frame's requests
 *   (what a page hands it by postMessage leaves only through them);
 * - not readable: prefetch and preconnect (the browser makes them outside the page's requests, as type `other`:
 *   closed, which costs a page nothing but speed), CSP reports, WebSocket frames and WebTransport streams after the handshake, closed here by the browser's rules;
 *   WebRTC data channels and media (peer to peer, no request at all), taken away from the page's scripts
 *   (`WEBRTC_OFF`); BroadcastChannel and same-origin storage stay inside the origin and need nothing.
 */
export const UNREADABLE_TYPES: chrome.declarativeNetRequest.ResourceType[] = ['websocket', 'webtransport', 'webbundle', 'other', 'csp_report'] as chrome.declarativeNetRequest.ResourceType[];

/** Everything but the page itself (page loads are the guard's own rule): for a tab the debugger cannot watch. */
export const ALL_BUT_PAGES: chrome.declarativeNetRequest.ResourceType[] = [
  'sub_frame',
  'stylesheet',
  'script',
  'image',
  'font',
  'object',
  'xmlhttprequest',
  'ping',
  'csp_report',
  'media',
  'websocket',
  'webtransport',
  'webbundle',
  'other',
] as chrome.declarativeNetRequest.ResourceType[];

/** Run in every page and frame of a task's tab once a secret is on it: no peer connection can be made from then on. */
export const WEBRTC_OFF = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCRtpSender', 'RTCIceTransport']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false }); } catch {}
  }
})();`;

export interface Sealed {
  /** Origins every secret of the task may go to. */
  origins: string[];
  /** Close every channel, not only the unreadable ones (a tab the debugger cannot watch). */
  everything: boolean;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression for an origin and its subdomains, in its http and ws forms. */
export function originRegex(origin: string): string | null {
  const url = parseWebAddress(origin);
  if (!url) return null;
  const scheme = url.scheme === 'https' ? '(?:https|wss)' : '(?:http|ws)';
  const host = escape(url.host.replace(/^www\./, ''));
  const port = url.port === defaultPort(url.scheme) ? '' : `:${url.port}`;
  return `^${scheme}://(?:[^/?#@]*\\.)?${host}${escape(port)}(?:[/?#]|$)`;
}

/** Rules with ids from `firstId` (at most `room`): block the channels on the tabs, allow the secrets' origins. */
export function sealedRules(tabs: number[], sealed: Sealed | undefined, firstId: number, room: number): DnrRule[] {
  if (!sealed || tabs.length === 0) return [];
  const resourceTypes = sealed.everything ? ALL_BUT_PAGES : UNREADABLE_TYPES;
  const rules: DnrRule[] = [{ id: firstId, priority: 3, action: { type: 'block' }, condition: { tabIds: tabs, resourceTypes } }];
  let id = firstId + 1;
  for (const origin of sealed.origins) {
    const regexFilter = originRegex(origin);
    if (regexFilter === null || id >= firstId + room) continue;
    rules.push({ id, priority: 4, action: { type: 'allow' }, condition: { tabIds: tabs, resourceTypes, regexFilter, isUrlFilterCaseSensitive: false } });
    id += 1;
  }
  return rules;
}

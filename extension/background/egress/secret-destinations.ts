/**
 * Where a secret typed into a page may go: the origins it was typed at (the page's, and the frame's it was typed in),
 * the same site's other hosts on the same scheme and port (a shop at shop.example posting its card to
 * pay.shop.example), and origins the user approved for it. Compared as the WHATWG URL parser reads addresses.
 */

import { parseWebAddress } from '../../../shared/agent/web-address';

interface Parsed {
  scheme: string;
  host: string;
  port: string;
}

function parse(address: string): Parsed | null {
  // ws: and wss: reach the same servers as http: and https:, and their hosts are read the same way.
  const url = parseWebAddress(address.trim().replace(/^ws(s?):/i, 'http$1:'));
  if (!url) return null;
  return { scheme: `${url.scheme}:`, host: url.host.replace(/^www\./, ''), port: String(url.port) };
}

/** Hosts of one site as far as can be told without the public suffix list: one is the other or a subdomain of it. */
function related(a: string, b: string): boolean {
  if (a === b) return true;
  // Two labels at least on the shorter side, so "co.uk" never stands for every site under it.
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.includes('.') && long.endsWith(`.${short}`);
}

/** Whether `destination` (a URL) is one of the places `allowed` (origins) lets a secret go. */
export function secretMayGo(destination: string, allowed: Iterable<string>): boolean {
  const to = parse(destination);
  if (!to) return true; // data:, blob:, about: never leave the browser.
  for (const origin of allowed) {
    const from = parse(origin);
    if (from && from.scheme === to.scheme && from.port === to.port && related(from.host, to.host)) return true;
  }
  return false;
}

/** The origin of an address for a card (`http://evil.test:8080`), as the browser reads it. */
export function destinationOrigin(destination: string): string | null {
  try {
    const url = new URL(destination);
    const scheme = url.protocol === 'ws:' ? 'http:' : url.protocol === 'wss:' ? 'https:' : url.protocol;
    return url.host ? `${scheme}//${url.host}` : null;
  } catch {
    return null;
  }
}

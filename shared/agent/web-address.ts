/**
 * Addresses exactly as the browser reads them. Every comparison of hosts and origins in Deputy goes through
 * `parseWebAddress`, which is the WHATWG URL parser (`new URL`) and nothing else: a hand-written pattern reads
 * `https://evil.test\@shop.test/` as shop.test while the browser goes to evil.test (a backslash is a slash in
 * special URLs), and it keeps a Unicode host as typed while the browser goes to its punycode (`xn--`) form.
 */

export interface WebAddress {
  /** 'http' or 'https'. */
  scheme: 'http' | 'https';
  /** The host as the browser sends it: lower case, ASCII (punycode for internationalized names), no trailing dot. */
  host: string;
  /** The port, with the scheme's default written out (443, 80). */
  port: number;
  /** `https://shop.test`, `http://shop.test:8080`: the origin as browsers write it. */
  origin: string;
}

const DEFAULT_PORT = { http: 80, https: 443 } as const;

/** The http(s) address as the WHATWG URL parser reads it, or null for anything else (bad input, other schemes). */
export function parseWebAddress(address: string): WebAddress | null {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return null;
  }
  const scheme = url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : null;
  if (scheme === null || url.hostname === '') return null;
  // A trailing dot names the same site (`shop.test.` is `shop.test`); browsers keep it, the user never means it.
  const host = url.hostname.replace(/\.$/, '');
  const port = url.port === '' ? DEFAULT_PORT[scheme] : Number(url.port);
  const origin = `${scheme}://${host}${port === DEFAULT_PORT[scheme] ? '' : `:${port}`}`;
  return { scheme, host, port, origin };
}

/** The scheme's default port, or null for a scheme Deputy does not reach. */
export function defaultPort(scheme: string): number | null {
  return scheme === 'https' ? 443 : scheme === 'http' ? 80 : null;
}

/**
 * A host as the user types it in a site pattern ("Shop.TEST", "bücher.example", "[::1]"), read the way the browser
 * would read it in an address: the ASCII form, or null when no browser would accept it as a host.
 */
export function normalizeHost(host: string): string | null {
  const parsed = parseWebAddress(`https://${host}/`);
  // A host with a port, a path or credentials in it is not a host.
  if (!parsed || /[/?#@\\]/.test(host) || (/:/.test(host) && !host.startsWith('['))) return null;
  return parsed.host;
}

/** The address without its fragment: what a request or a document is fetched by. */
export function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

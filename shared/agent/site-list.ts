/**
 * Sites as Deputy compares them: by scheme, host and port (an origin), never by host alone, so `shop.example:8443` is
 * not `shop.example`, and `http:` is not `https:`.
 *
 * Users write site patterns in Settings: "example.com" (the site and its subdomains, at the scheme's default port),
 * "*.example.com" (subdomains only), "shop.example.com:8443" (that port), "https://example.com" (that scheme only).
 * Anything that is not an http(s) URL matches nothing. Addresses are read by the WHATWG URL parser (`web-address`),
 * patterns' hosts are turned into the ASCII form the browser sends, so both sides compare as the browser goes.
 */

import { hostWithUnicode } from './host-display';
import { normalizeHost, parseWebAddress } from './web-address';

const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443 };

/** The host the browser would go to (ASCII, punycode for internationalized names), or null. */
export function hostOf(url: string): string | null {
  return parseWebAddress(url)?.host ?? null;
}

interface Parts {
  scheme: string;
  host: string;
  port: number;
}

function partsOf(url: string): Parts | null {
  return parseWebAddress(url);
}

/** `http://shop.test:8080`, `https://example.com` (a default port is left out, as browsers write origins), or null. */
export function originOf(url: string): string | null {
  return parseWebAddress(url)?.origin ?? null;
}

/** Whether two addresses are on the same origin (scheme, host and port). */
export function sameOrigin(a: string, b: string): boolean {
  const origin = originOf(a);
  return origin !== null && origin === originOf(b);
}

/** An origin for people: `shop.example` for https, the whole origin (`http://shop.test:8080`) for plain http. */
export function originLabel(origin: string): string {
  const parsed = parseWebAddress(origin);
  if (!parsed) return origin.replace(/^https:\/\//, '');
  // An internationalized name is shown as the browser sends it (punycode), with its Unicode beside it.
  const label = parsed.origin.replace(/^https:\/\//, '');
  const unicode = hostWithUnicode(parsed.host);
  return unicode === parsed.host ? label : `${label} (${unicode})`;
}

export interface SitePattern {
  /** null: http and https. */
  scheme: 'http' | 'https' | null;
  host: string;
  /** 'also': the host and its subdomains; 'only': subdomains only; 'exact': the host alone (an origin). */
  subdomains: 'also' | 'only' | 'exact';
  /** null: the scheme's default port. */
  port: number | null;
}

/** Reads a pattern as users write it (see the top of this file); null when it names no site. */
export function parseSitePattern(pattern: string): SitePattern | null {
  const trimmed = pattern.trim().toLowerCase();
  const scheme = /^(https?):\/\//.exec(trimmed)?.[1] as 'http' | 'https' | undefined;
  const rest = trimmed.replace(/^https?:\/\//, '').replace(/[/?#].*$/, '');
  const match = /^(\*\.)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(rest);
  if (!match?.[2]) return null;
  if (match[2].includes('*')) return null;
  const host = normalizeHost(match[2].replace(/\.$/, ''));
  if (host === null || host === '') return null;
  return { scheme: scheme ?? null, host, subdomains: match[1] ? 'only' : 'also', port: match[3] === undefined ? null : Number(match[3]) };
}

function hostMatches(host: string, pattern: SitePattern): boolean {
  if (pattern.subdomains === 'exact') return host === pattern.host;
  if (pattern.subdomains === 'only') return host.endsWith(`.${pattern.host}`);
  return host === pattern.host || host.endsWith(`.${pattern.host}`);
}

export function patternMatches(url: string, pattern: SitePattern): boolean {
  const parts = partsOf(url);
  if (!parts) return false;
  if (pattern.scheme !== null && pattern.scheme !== parts.scheme) return false;
  const port = pattern.port ?? DEFAULT_PORT[parts.scheme];
  return parts.port === port && hostMatches(parts.host, pattern);
}

/** The pattern an origin stands for: exactly that scheme, host and port. */
export function originPattern(origin: string): SitePattern | null {
  const parts = partsOf(origin);
  return parts ? { scheme: parts.scheme as 'http' | 'https', host: parts.host, subdomains: 'exact', port: parts.port } : null;
}

/** Whether the address matches a user's site pattern ("example.com", "*.example.com", "shop.test:8080"). */
export function siteMatches(url: string, pattern: string): boolean {
  const parsed = parseSitePattern(pattern);
  return parsed !== null && patternMatches(url, parsed);
}

export function matchesAny(url: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => siteMatches(url, pattern));
}

/**
 * Where a task may go and act without asking: its own start origin, the origins approved for it during the run, and
 * the user's allowed sites from Settings. The start origin always counts, whatever else the lists hold.
 */
export interface ApprovedScope {
  /** Exact origins (the start origin, sites approved for this task). */
  origins: readonly string[];
  /** The user's patterns from Settings. */
  patterns: readonly string[];
}

export function inScope(url: string, scope: ApprovedScope): boolean {
  const origin = originOf(url);
  if (origin === null) return false;
  return scope.origins.includes(origin) || matchesAny(url, scope.patterns);
}

/** The scope in words, for an approval: "shop.test:8080, docs.example". */
export function scopeText(scope: ApprovedScope): string {
  return [...scope.origins.map(originLabel), ...scope.patterns].join(', ');
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regular expression (RE2 syntax, for declarativeNetRequest) that matches the URLs of a pattern. Browsers write a
 * default port nowhere in a URL, so a pattern without a port matches only addresses that name none.
 */
export function patternRegex(pattern: SitePattern): string {
  const sub = pattern.subdomains === 'exact' ? '' : pattern.subdomains === 'only' ? '[^/?#@:]+\\.' : '(?:[^/?#@:]+\\.)?';
  const host = `${sub}${escapeRegex(pattern.host)}`;
  if (pattern.scheme === null && pattern.port !== null) {
    // "example.com:443" with no scheme: https as browsers write it (no port), http with the port written out.
    const [plain, secure] = [pattern.port === DEFAULT_PORT.http ? '' : `:${pattern.port}`, pattern.port === DEFAULT_PORT.https ? '' : `:${pattern.port}`];
    return `^(?:http://${host}${plain}|https://${host}${secure})/`;
  }
  const isDefault = pattern.port === null || (pattern.scheme !== null && pattern.port === DEFAULT_PORT[pattern.scheme]);
  const port = isDefault ? '' : `:${pattern.port}`;
  return `^${pattern.scheme ?? 'https?'}://${host}${port}/`;
}

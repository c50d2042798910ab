/**
 * Site patterns as users write them: "example.com" (the site and its subdomains), "*.example.com" (subdomains only),
 * or "shop.example.com". Anything that is not an http(s) URL matches nothing.
 */
export function hostOf(url: string): string | null {
  const match = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)/i.exec(url.trim());
  return match?.[1] ? match[1].toLowerCase().replace(/\.$/, '') : null;
}

export function siteMatches(host: string, pattern: string): boolean {
  // A site is its host: a port in the pattern ("127.0.0.1:8080", from a start URL) does not narrow it.
  const p = pattern.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/:\d+$/, '');
  if (p === '') return false;
  if (p.startsWith('*.')) return host.endsWith(p.slice(1));
  return host === p || host.endsWith(`.${p}`);
}

export function matchesAny(url: string, patterns: readonly string[]): boolean {
  const host = hostOf(url);
  return host !== null && patterns.some((pattern) => siteMatches(host, pattern));
}

import { z } from 'zod';
import shipped from './support-sites.json';

/**
 * Knowing where to go (issue 31, item 5): a small shipped map of where support, contact, orders, returns and account
 * pages live on large shops and services, and what Deputy learned on a site in earlier cases (where its chat was
 * found). Both are hints for the model at the start of a support case, never a substitute for reading the page.
 */

export const SupportPageKind = z.enum(['support', 'contact', 'orders', 'returns', 'account']);
export type SupportPageKind = z.infer<typeof SupportPageKind>;

const HttpsUrl = z.string().url().refine((url) => url.startsWith('https://'), 'An address in the support map must be https');

export const SupportSite = z
  .object({
    name: z.string().min(1),
    /** Registrable domains the site answers on; subdomains count ("help.target.com" is target.com). */
    domains: z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'A domain is lower-case, without a scheme or path')).min(1),
    pages: z.partialRecord(SupportPageKind, HttpsUrl),
  })
  .strict();
export type SupportSite = z.infer<typeof SupportSite>;

export const SupportSiteMap = z.object({ note: z.string(), sites: z.array(SupportSite).min(1) }).strict();
export type SupportSiteMap = z.infer<typeof SupportSiteMap>;

/** What Deputy learned on one site in earlier cases. */
export const LearnedSupportSite = z.object({
  /** The page the site's chat opened on, and its vendor. */
  chatUrl: z.string().url().optional(),
  vendor: z.string().optional(),
  /** The contact page a written escalation went through. */
  contactUrl: z.string().url().optional(),
  at: z.number(),
});
export type LearnedSupportSite = z.infer<typeof LearnedSupportSite>;

let parsed: SupportSiteMap | null = null;

/** The shipped map, parsed once (a bad edit fails loudly here and in its unit test, not silently in a case). */
export function supportSiteMap(): SupportSiteMap {
  parsed ??= SupportSiteMap.parse(shipped);
  return parsed;
}

/** The site of the map a page belongs to (by host, subdomains included), or null. */
export function supportSiteFor(url: string, map: SupportSiteMap = supportSiteMap()): SupportSite | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  return map.sites.find((site) => site.domains.some((domain) => host === domain || host.endsWith(`.${domain}`))) ?? null;
}

/** The hint the model gets at the start of a support case, or '' when Deputy knows nothing of the site. */
export function supportSiteHint(url: string, learned: LearnedSupportSite | null, map: SupportSiteMap = supportSiteMap()): string {
  const lines: string[] = [];
  const site = supportSiteFor(url, map);
  if (site) {
    lines.push(`Where things are on ${site.name} (Deputy's shipped map; pages move, so check what you see):`);
    for (const kind of SupportPageKind.options) if (site.pages[kind]) lines.push(`- ${kind}: ${site.pages[kind]}`);
  }
  if (learned?.chatUrl) lines.push(`In an earlier case on this site the support chat${learned.vendor ? ` (${learned.vendor})` : ''} was found at ${learned.chatUrl}.`);
  if (learned?.contactUrl) lines.push(`An earlier case wrote to support through the contact page ${learned.contactUrl}.`);
  return lines.join('\n');
}

/** The contact page to write to: the map's contact (else support) page, else what an earlier case used, else null. */
export function contactPageFor(url: string, learned: LearnedSupportSite | null, map: SupportSiteMap = supportSiteMap()): string | null {
  const site = supportSiteFor(url, map);
  return site?.pages.contact ?? learned?.contactUrl ?? site?.pages.support ?? null;
}

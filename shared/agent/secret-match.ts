/**
 * Finds the task's secrets in bytes about to leave the browser (a request's address, headers and body), whatever
 * common encoding a page's script put them in: raw, URL-encoded (once or more), base64 (standard or URL-safe, with or
 * without padding), hex, JSON or HTML escapes, with the case and the separators changed ("4111-1111 1111 1111",
 * "4111111111111111" and "NDExMTExMTExMTExMTExMQ" are the same card). The text is decoded into every view a reader
 * could take of it, and each view is compared with the secret in a compact form (letters and digits only, lower case).
 */

export interface NamedSecret {
  name: string;
  value: string;
}

/** A secret shorter than this (compact) is compared as written: a 3-digit code would match any number. */
const MIN_COMPACT = 6;
/** From this length (compact) a value's first three fifths are enough to know it. */
const PREFIX_FROM = 12;
/** How deep encodings may nest (base64 of a URL-encoded JSON...), and how much text is decoded at most. */
const MAX_DEPTH = 4;
/** Text past this is not decoded: a body longer than it is treated as one whose content cannot be inspected. */
export const INSPECT_LIMIT = 512_000;
const MAX_VIEWS = 400;

export function compact(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

function percentDecode(text: string): string | null {
  if (!/%[0-9a-f]{2}/i.test(text) && !text.includes('+')) return null;
  const plus = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // A malformed sequence somewhere: decode the well-formed ones, byte by byte.
    return plus.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
    });
  }
}

function escapesDecoded(text: string): string | null {
  if (!/\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\[nrt"/\\]|&#x?[0-9a-f]+;|&[a-z]+;/i.test(text)) return null;
  return text
    .replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\x([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\([nrt"/\\])/g, (_m, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c)
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Math.min(Number(dec), 0x10ffff)))
    .replace(/&(amp|lt|gt|quot|apos);/gi, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name.toLowerCase()] ?? '');
}

const B64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

function bytesToText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function base64Decode(run: string): string | null {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return bytesToText(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** Every base64 run in the text decoded, at each of the four alignments (a run may start inside a longer word). */
function base64Views(text: string): string[] {
  const views: string[] = [];
  for (const match of text.matchAll(B64_RUN)) {
    const run = match[0];
    for (let shift = 0; shift < 4 && run.length - shift >= 8; shift += 1) {
      const decoded = base64Decode(run.slice(shift));
      if (decoded !== null && decoded !== run) views.push(decoded);
    }
  }
  return views;
}

function hexViews(text: string): string[] {
  return [...text.matchAll(/(?:[0-9a-f]{2}){6,}/gi)].map((m) => bytesToText(Uint8Array.from(m[0].match(/../g) ?? [], (h) => parseInt(h, 16))));
}

/** The text and every decoding of it a reader could take, nested up to a few levels. */
export function decodedViews(text: string): string[] {
  const seen = new Set<string>();
  let layer = [text.slice(0, INSPECT_LIMIT)];
  for (let depth = 0; depth <= MAX_DEPTH && layer.length > 0 && seen.size < MAX_VIEWS; depth += 1) {
    const next: string[] = [];
    for (const view of layer) {
      if (seen.has(view) || seen.size >= MAX_VIEWS) continue;
      seen.add(view);
      if (depth === MAX_DEPTH) continue;
      const percent = percentDecode(view);
      const escaped = escapesDecoded(view);
      for (const decoded of [percent, escaped, ...base64Views(view), ...hexViews(view)]) if (decoded !== null && !seen.has(decoded)) next.push(decoded);
    }
    layer = next;
  }
  return [...seen];
}

/** The names of the secrets the text carries, in any of the encodings above. */
export function secretsIn(text: string, secrets: readonly NamedSecret[]): string[] {
  if (secrets.length === 0 || text === '') return [];
  const views = decodedViews(text);
  const compacted = views.map(compact);
  const lowered = views.map((v) => v.toLowerCase());
  const found: string[] = [];
  for (const secret of secrets) {
    const whole = compact(secret.value);
    // A long value is also caught while it is still being typed (a script sending the field on every key): its first
    // three fifths are as telling as all of it.
    const short = whole.length >= PREFIX_FROM ? whole.slice(0, Math.ceil(whole.length * 0.6)) : whole;
    const hit =
      short.length >= MIN_COMPACT ? compacted.some((view) => view.includes(short)) : secret.value.trim().length >= 3 && lowered.some((view) => view.includes(secret.value.trim().toLowerCase()));
    if (hit) found.push(secret.name);
  }
  return found;
}

/**
 * Internationalized host names for people. The browser sends a name like `shоp.test` (with a Cyrillic "о") as its
 * punycode `xn--shp-ted.test`; Deputy shows that form, with the Unicode beside it, and warns when the Unicode would
 * pass for a site the user approved (a confusable skeleton, as in Unicode's UTS #39, from a small table of the
 * look-alikes that matter in host names: Cyrillic, Greek, Armenian and Latin variants of ASCII letters and digits), or
 * when one label mixes scripts. The table is ours, written for host names, not the full confusables.txt.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

/** RFC 3492 decoding of one label's punycode (without `xn--`); null when it is not valid punycode. */
export function decodePunycode(input: string): string | null {
  const output: number[] = [];
  const basic = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basic, 0); j += 1) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length; ) {
    const oldi = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const digit = digitOf(input.charCodeAt(index));
      index += 1;
      if (digit >= BASE) return null;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
      if (w > 0x10ffff * BASE) return null;
    }
    bias = adapt(i - oldi, output.length + 1, oldi === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}

/** `xn--bcher-kva.example` -> `bücher.example`; labels that are not valid punycode stay as they are. */
export function hostWithUnicode(host: string): string {
  return host
    .split('.')
    .map((label) => (/^xn--/i.test(label) ? (decodePunycode(label.slice(4).toLowerCase()) ?? label) : label))
    .join('.');
}

// Look-alikes of ASCII letters and digits that IDNA lets into a host name (after its own NFKC mapping, so full-width
// forms are already plain). Keys are the look-alike, values what it passes for.
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', г: 'r', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', н: 'h', о: 'o',
  р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ь: 'b', ү: 'y', ц: 'u', п: 'n', ո: 'n',
  // Greek
  α: 'a', β: 'b', γ: 'y', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
  // Armenian
  օ: 'o', ս: 'u', հ: 'h', զ: 'q', ց: 'g', ք: 'p', յ: 'j',
  // Latin variants and digits that read as letters
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ʟ: 'l', ß: 'ss', ø: 'o', đ: 'd', ħ: 'h', ł: 'l', '0': 'o', '1': 'l',
};

/** What a host name looks like to a reader: look-alikes and accents folded to plain letters, `rn` read as `m`. */
export function skeletonOf(host: string): string {
  const folded = [...hostWithUnicode(host).toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')]
    .map((ch) => LOOK_ALIKES[ch] ?? ch)
    .join('');
  return folded.replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/[1I]/g, 'l');
}

const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Devanagari'] as const;
const SCRIPT_TESTS = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);
// Japanese writes Han, Hiragana and Katakana (and Latin) together; Korean Hangul with Han; Chinese Han with Latin.
const ALLOWED_MIXES = [new Set(['Latin', 'Han', 'Hiragana', 'Katakana']), new Set(['Latin', 'Han', 'Hangul'])];

/** The scripts of a label's letters (digits and hyphens have none). */
export function scriptsOf(label: string): string[] {
  const found = new Set<string>();
  for (const ch of label) for (const [name, test] of SCRIPT_TESTS) if (test.test(ch)) found.add(name);
  return [...found];
}

/** The first label of a host that mixes scripts no language writes together ("shоp": Latin with one Cyrillic "о"). */
export function mixedScriptLabel(host: string): string | null {
  for (const label of hostWithUnicode(host).split('.')) {
    const scripts = scriptsOf(label);
    if (scripts.length > 1 && !ALLOWED_MIXES.some((mix) => scripts.every((s) => mix.has(s)))) return label;
  }
  return null;
}

/**
 * A warning for an internationalized host (one with `xn--` labels) that resembles one of `known` (the sites the user
 * approved, the task's own), or mixes scripts in a label; null for a plain ASCII host or one that resembles nothing.
 */
export function lookAlikeWarning(host: string, known: readonly string[]): string | null {
  if (!/(^|\.)xn--/i.test(host)) return null;
  const unicode = hostWithUnicode(host);
  const skeleton = skeletonOf(host);
  const twin = known.find((other) => other !== host && skeletonOf(other) === skeleton);
  if (twin) return `${host} is shown as "${unicode}", which looks like ${hostWithUnicode(twin)} but is a different site`;
  const mixed = mixedScriptLabel(host);
  if (mixed) return `${host} is shown as "${unicode}", whose "${mixed}" mixes ${scriptsOf(mixed).join(' and ')} letters, a way to pass for another site`;
  return null;
}

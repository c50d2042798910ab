/**
 * Labels as the reader sees them. A page can put Unicode's bidirectional controls into a label so that it shows
 * "Close this notice" while its characters say something else (a right-to-left override reverses what follows it),
 * or split a word with invisible characters ("Pre\u200Bmium") so a check for risky words misses it. Before a label
 * is judged or shown, `readableLabel` puts each overridden run in the order it is displayed and removes every
 * character of Unicode's Bidi_Control and Default_Ignorable_Code_Point properties (the set comes from the properties
 * themselves, through the regular expression engine's Unicode data, not from a list of our own).
 *
 * Removing joiners (U+200C, U+200D) can change how some scripts and emoji sequences render; the letters stay, which
 * is what a label needs.
 */

const INVISIBLE = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/gu;
const HAS_INVISIBLE = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;

const RLO = '\u202E';
const LRO = '\u202D';
// What ends an override: its pop (PDF), an isolate's pop (PDI, which closes everything opened inside the isolate), or
// the end of the paragraph.
const OVERRIDE_END = /[\u202C\u2069\n]/;

/** Whether the text holds a bidirectional control or an invisible character. */
export function hasInvisible(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}

/**
 * The characters of a right-to-left override run in the order the reader sees them: an RLO forces every character up
 * to its PDF to be laid out right to left, so a run of Latin letters shows reversed. Nested overrides are resolved
 * from the inside out. A left-to-right override on left-to-right text changes nothing.
 */
function displayOrder(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch !== RLO && ch !== LRO) {
      out += ch;
      i += 1;
      continue;
    }
    // Find this override's end, skipping nested overrides (each closed by its own PDF).
    let depth = 0;
    let j = i + 1;
    for (; j < text.length; j += 1) {
      const c = text[j] as string;
      if (c === RLO || c === LRO) depth += 1;
      else if (OVERRIDE_END.test(c)) {
        if (depth === 0 || c !== '\u202C') break;
        depth -= 1;
      }
    }
    const inner = displayOrder(text.slice(i + 1, j));
    out += ch === RLO ? [...inner].reverse().join('') : inner;
    i = j + (j < text.length && text[j] !== '\n' ? 1 : 0);
  }
  return out;
}

/** The label as displayed, with no bidirectional or invisible characters left; text without them is returned as is. */
export function readableLabel(text: string): string {
  if (!hasInvisible(text)) return text;
  return displayOrder(text).replace(INVISIBLE, '');
}

import { describe, expect, it } from 'vitest';
import { hasInvisible, readableLabel } from '../../../../shared/agent/label-text';
import { type RiskFindings, wordRisks } from '../../../../shared/agent/risk-signals';

// The characters come from the Unicode properties themselves, walked over every code point here, so the test does
// not share a hand-written list with the code.
const CONTROLS: string[] = [];
for (let cp = 0; cp <= 0xe0fff; cp += 1) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const ch = String.fromCodePoint(cp);
  if (/\p{Bidi_Control}|\p{Default_Ignorable_Code_Point}/u.test(ch)) CONTROLS.push(ch);
}
const reversed = (text: string): string => [...text].reverse().join('');
const LABELS = ['Buy Premium plan $9.99/month', 'Delete account', 'Close this notice', 'Subscribe now'];

function findings(): RiskFindings {
  return { classes: new Set(), reasons: [] };
}
// The reserved block E0000–E0FFF (tags, variation selectors supplement) is 4,096 of them: every 32nd is enough.
const SAMPLE = CONTROLS.filter((ch, i) => (ch.codePointAt(0) ?? 0) < 0xe0000 || i % 32 === 0);

describe('labels as the reader sees them', () => {
  it('holds every character the issue names among those derived from the properties', () => {
    const named = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0xfeff, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x061c, 0x180e, 0x00ad];
    for (const cp of named) expect(CONTROLS, cp.toString(16)).toContain(String.fromCodePoint(cp));
    expect(CONTROLS.length).toBeGreaterThan(4000);
  });

  it(`removes the controls (${SAMPLE.length} of ${CONTROLS.length}), wherever one sits in a label`, () => {
    for (const ch of SAMPLE) {
      if (ch === '\u202e' || ch === '\u202d') continue; // overrides reorder what follows; tested below
      for (const label of LABELS) {
        for (const at of [0, 3, label.length]) {
          const dirty = `${label.slice(0, at)}${ch}${label.slice(at)}`;
          const clean = readableLabel(dirty);
          if (clean !== label || hasInvisible(clean)) expect(clean, `U+${ch.codePointAt(0)?.toString(16)} at ${at}`).toBe(label);
        }
      }
    }
  });

  it('puts a right-to-left override in the order it is displayed, with or without its closing mark', () => {
    for (const label of LABELS) {
      for (const close of ['\u202c', '\u2069', '']) {
        expect(readableLabel(`\u202e${reversed(label)}${close}`)).toBe(label);
        expect(readableLabel(`Ok \u202e${reversed(label)}${close}`)).toBe(`Ok ${label}`);
      }
      expect(readableLabel(`\u202d${label}\u202c`)).toBe(label);
    }
  });

  it('lets no control hide a risky word from the gate', () => {
    const hidden = ['\u202eyub\u202c Pre\u200bmium p\u2060lan', `\u202e${reversed('Buy Premium plan $9.99/month')}`, 'De\u00adlete ac\ufeffcount'];
    for (const label of hidden) {
      const found = findings();
      wordRisks(label, found);
      expect(found.reasons.length, label).toBeGreaterThan(0);
      for (const reason of found.reasons) expect(hasInvisible(reason), reason).toBe(false);
    }
  });

  it('leaves text without controls exactly as it was', () => {
    for (const label of [...LABELS, 'מחיר ₪40', 'السعر', '価格 ¥500', '']) expect(readableLabel(label)).toBe(label);
  });
});

import type { Deck } from './document-model';
import type { ShapeRule } from './rules';

/** How many template slides ahead an output slide is looked for: a few removed or added slides, not a shuffled deck. */
const WINDOW = 5;

const signature = (shapes: ReadonlyArray<Pick<ShapeRule, 'name' | 'kind'>>): string =>
  shapes.map((shape) => `${shape.kind}:${shape.name}`).join('\u0000');

/**
 * When an output has more or fewer slides than its template, which template slide each output slide is: matched in
 * order by the shapes they hold (names and kinds). A finding the template itself shows on its slide 7 is then still
 * recognized on the output's slide 6 after a slide before it went missing. Returns output number -> template number.
 */
export function alignSlides(deck: Deck, template: readonly ShapeRule[][]): Map<number, number> {
  const map = new Map<number, number>();
  const visible = deck.slides.filter((slide) => !slide.hidden);
  if (visible.length === template.length) return map;
  const wanted = template.map(signature);
  let next = 0;
  for (const slide of visible) {
    const own = signature(
      slide.shapes
        .filter((shape) => !shape.inherited && shape.kind !== 'line' && (shape.kind !== 'graphic' || shape.box))
        .map((shape) => ({ name: shape.name, kind: shape.kind === 'line' ? 'graphic' : shape.kind })),
    );
    let found = -1;
    for (let index = next; index < Math.min(wanted.length, next + WINDOW); index += 1) {
      if (wanted[index] === own) {
        found = index;
        break;
      }
    }
    const at = found >= 0 ? found : Math.min(next, wanted.length - 1);
    if (at < 0) break;
    map.set(slide.number, at + 1);
    next = at + 1;
  }
  return map;
}

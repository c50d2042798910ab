import { describe, expect, it } from 'vitest';
import { dropPoint, placeFor } from '../../../../../extension/content/actions/drag-action';

// A list item 130 px wide and 26 px high at (10, top): wider than high, as list rows are.
const row = (top: number) => ({ left: 10, top, width: 130, height: 26, right: 140, bottom: top + 26 }) as DOMRect;
const centre = (rect: DOMRect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

describe('drops onto an item of the same list', () => {
  const list = {} as Element;
  const item = { parentElement: list } as unknown as Element;
  const other = { parentElement: list } as unknown as Element;
  const zone = { parentElement: {} as Element } as unknown as Element;

  // Every pair of places in a five-row list, up and down: the drop point is past the target's middle in the direction
  // of travel, so a sortable list puts the item at the target's place, not one short of it.
  for (let from = 0; from < 5; from += 1) {
    for (let to = 0; to < 5; to += 1) {
      if (from === to) continue;
      it(`from row ${from + 1} to row ${to + 1}`, () => {
        const start = centre(row(57 + from * 29));
        const rect = row(57 + to * 29);
        const place = placeFor(item, other, centre(rect), start, 'center');
        expect(place).toBe(to > from ? 'after' : 'before');
        const at = dropPoint(rect, centre(rect), start, place);
        expect(at.x).toBe(centre(rect).x);
        if (to > from) expect(at.y).toBeGreaterThan(rect.top + rect.height / 2);
        else expect(at.y).toBeLessThan(rect.top + rect.height / 2);
        expect(at.y).toBeGreaterThan(rect.top);
        expect(at.y).toBeLessThan(rect.bottom);
      });
    }
  }

  it('moves along the row for a drag across it, whatever the shape of the target', () => {
    const rect = { left: 200, top: 10, width: 40, height: 100, right: 240, bottom: 110 } as DOMRect;
    const at = dropPoint(rect, { x: 220, y: 60 }, { x: 20, y: 60 }, 'after');
    expect(at).toEqual({ x: 230, y: 60 });
  });

  it('keeps the centre for a drop zone that is not a sibling, and what the caller asked for', () => {
    expect(placeFor(item, zone, { x: 50, y: 300 }, { x: 50, y: 10 }, 'center')).toBe('center');
    expect(placeFor(item, other, { x: 50, y: 300 }, { x: 50, y: 10 }, 'before')).toBe('before');
    expect(dropPoint(row(100), { x: 75, y: 113 }, { x: 75, y: 10 }, 'center')).toEqual({ x: 75, y: 113 });
  });
});

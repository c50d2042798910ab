import { describe, expect, it } from 'vitest';
import type { ObservedElement } from '../../../../shared/agent/environment';
import { findTarget, identityOf, nearText } from '../../../../shared/routines/target-identity';

/** A page of products, each with its name as text and the same "Add to cart" button under it, numbered from `base`. */
function shop(products: string[], base: number, options: { label?: string; frameOrigin?: string } = {}): { elements: ObservedElement[]; text: string } {
  const elements: ObservedElement[] = [];
  const lines = ['# Shop'];
  products.forEach((product, i) => {
    const ref = base + i;
    lines.push(product, `[${ref}] button "${options.label ?? 'Add to cart'}"`);
    elements.push({ ref, role: 'button', name: options.label ?? 'Add to cart', ...(options.frameOrigin ? { origin: options.frameOrigin } : {}) });
  });
  elements.push({ ref: base + 100, role: 'link', name: 'Checkout' });
  lines.push(`[${base + 100}] link "Checkout"`);
  return { elements, text: lines.join('\n') };
}

describe('element identity', () => {
  it('reads the text above an element, skipping other numbered lines', () => {
    expect(nearText('# Shop\nBlue mug\n[3] button "Add"\n[4] link "More"', 4)).toBe('Blue mug');
    expect(nearText(null, 4)).toBeUndefined();
  });

  // Every product of a matrix of shops, recorded on one load and found on a reload where all refs changed and the
  // products may be in another order: the button under the same product is found, never another product's.
  const catalogs = [['Blue mug'], ['Blue mug', 'Red mug'], ['Blue mug', 'Red mug', 'Green mug', 'Tea pot']];
  for (const products of catalogs) {
    for (const [i, product] of products.entries()) {
      for (const reorder of [false, true]) {
        it(`finds "Add to cart" under ${product} among ${products.length} (${reorder ? 'reordered' : 'same order'}, new refs)`, () => {
          const before = shop(products, 10);
          const identity = identityOf(before, 10 + i);
          expect(identity).toMatchObject({ role: 'button', name: 'Add to cart', nth: i, of: products.length });
          const order = reorder ? [...products].reverse() : products;
          const after = shop(order, 200);
          const match = findTarget(identity!, after);
          expect(match).toEqual({ kind: 'found', ref: 200 + order.indexOf(product) });
        });
      }
    }
  }

  it('says missing when the label changed, and never matches another role', () => {
    const identity = identityOf(shop(['Blue mug'], 1), 1)!;
    expect(findTarget(identity, shop(['Blue mug'], 1, { label: 'Add to basket' })).kind).toBe('missing');
    expect(findTarget({ ...identity, role: 'link' }, shop(['Blue mug'], 1)).kind).toBe('missing');
  });

  it('matches names without case or extra spaces', () => {
    const identity = identityOf(shop(['Blue mug'], 1), 1)!;
    expect(findTarget(identity, shop(['Blue mug'], 5, { label: 'add  to CART' }))).toEqual({ kind: 'found', ref: 5 });
  });

  it('keeps the frame origin: the same button in a frame of another site is not the one recorded', () => {
    const identity = identityOf(shop(['Card'], 1, { frameOrigin: 'https://pay.test' }), 1)!;
    expect(identity.origin).toBe('https://pay.test');
    expect(findTarget(identity, shop(['Card'], 1, { frameOrigin: 'https://evil.test' })).kind).toBe('missing');
    expect(findTarget(identity, shop(['Card'], 1, { frameOrigin: 'https://pay.test' }))).toEqual({ kind: 'found', ref: 1 });
  });

  it('is ambiguous, not a guess, when look-alikes changed in number and the nearby text does not tell them apart', () => {
    const identity = identityOf(shop(['Mug', 'Mug'], 1), 2)!;
    const match = findTarget(identity, shop(['Mug', 'Mug', 'Mug'], 1));
    expect(match.kind).toBe('ambiguous');
  });
});

describe('look-alikes told apart by text', () => {
  it('does not fall back to the place among look-alikes when none is by the recorded text', () => {
    const identity = identityOf(shop(['Blue mug', 'Red mug'], 1), 1)!;
    expect(findTarget(identity, shop(['Green mug', 'Tea pot'], 1)).kind).toBe('ambiguous');
    expect(findTarget({ ...identity, near: 'Red mug' }, shop(['Green mug', 'Red mug'], 1))).toEqual({ kind: 'found', ref: 2 });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { clipped, innerClip, ownClip, type Clip } from '../../../../../extension/content/perception/scroll-clip';

const HTML = 'http://www.w3.org/1999/xhtml';

/** A box of the page: where it is drawn, its border and inside, and the styles that decide what it clips. */
function box(at: { left: number; top: number; width: number; height: number }, css: Partial<CSSStyleDeclaration>, ns = HTML) {
  const el = { namespaceURI: ns, clientLeft: 1, clientTop: 1, clientWidth: at.width - 2, clientHeight: at.height - 2 } as unknown as Element;
  const style = { position: 'static', overflowX: 'visible', overflowY: 'visible', display: 'block', ...css } as CSSStyleDeclaration;
  const rect = () => new DOMRect(at.left, at.top, at.width, at.height);
  return { el, style, rect };
}

const clipOf = (b: ReturnType<typeof box>, own: Clip | null) => innerClip(b.el, b.style, b.rect, own);

describe('what the boxes that scroll let show of an element', () => {
  beforeAll(() => {
    // The unit tests run in Node: a plain stand-in for the browser's DOMRect, with the same sides.
    globalThis.DOMRect ??= class {
      constructor(
        public x = 0,
        public y = 0,
        public width = 0,
        public height = 0,
      ) {}
      get left() { return this.x; }
      get top() { return this.y; }
      get right() { return this.x + this.width; }
      get bottom() { return this.y + this.height; }
    } as unknown as typeof DOMRect;
  });

  it('cuts to the inside of a box that scrolls, and of every such box around it', () => {
    const day = clipOf(box({ left: 0, top: 50, width: 222, height: 102 }, { overflowY: 'scroll', overflowX: 'auto', position: 'relative' }), null);
    expect(day).toEqual({ left: 1, right: 221, top: 51, bottom: 151, positioned: true });
    const inner = clipOf(box({ left: 100, top: 0, width: 52, height: 300 }, { overflowX: 'hidden', overflowY: 'hidden' }), day);
    expect(inner).toEqual({ left: 101, right: 151, top: 51, bottom: 151, positioned: false });
    // A slot half out of the day shows its upper half; one wholly below it shows nothing; one inside shows whole.
    expect(clipped(new DOMRect(0, 141, 100, 20), day)).toMatchObject({ top: 141, bottom: 151 });
    expect(clipped(new DOMRect(0, 151.2, 100, 20), day)).toBeNull();
    const whole = new DOMRect(10, 60, 100, 20);
    expect(clipped(whole, day)).toBe(whole);
    expect(clipped(whole, null)).toBe(whole);
  });

  it('cuts only along the axis that does not let its content out', () => {
    const row = clipOf(box({ left: 0, top: 0, width: 102, height: 20 }, { overflowX: 'clip' }), null);
    expect(row).toEqual({ left: 1, right: 101, top: -Infinity, bottom: Infinity, positioned: false });
    expect(clipped(new DOMRect(10, 500, 10, 10), row)).not.toBeNull();
    expect(clipped(new DOMRect(200, 5, 10, 10), row)).toBeNull();
  });

  it('lets out what is drawn against a containing block outside the box, and an inline box or a drawing clips nothing', () => {
    const staticBox = clipOf(box({ left: 0, top: 0, width: 102, height: 102 }, { overflowX: 'hidden', overflowY: 'hidden' }), null);
    // A menu placed against a positioned element outside the box escapes it; fixed escapes every box.
    expect(ownClip('absolute', staticBox)).toBeNull();
    expect(ownClip('fixed', staticBox)).toBeNull();
    expect(ownClip('static', staticBox)).toBe(staticBox);
    // Placed against a positioned element inside the box, it is cut by the box.
    const holder = clipOf(box({ left: 0, top: 0, width: 50, height: 50 }, { position: 'relative' }), staticBox);
    expect(ownClip('absolute', holder)).toEqual({ ...staticBox, positioned: true });
    expect(clipOf(box({ left: 0, top: 0, width: 10, height: 10 }, { overflowX: 'hidden', overflowY: 'hidden', display: 'inline' }), null)).toBeNull();
    expect(clipOf(box({ left: 0, top: 0, width: 10, height: 10 }, { overflowX: 'hidden', overflowY: 'hidden' }, 'http://www.w3.org/2000/svg'), null)).toBeNull();
  });
});

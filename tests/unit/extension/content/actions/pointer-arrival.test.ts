import { describe, expect, it } from 'vitest';
import type { InputDriver } from '../../../../../extension/content/actions/input-types';
import { arriveAt } from '../../../../../extension/content/actions/pointer-arrival';
import type { DomAccess } from '../../../../../extension/content/perception/dom-access';

/** A control whose hover may start a transition, in a page whose frames are counted as they are asked for. */
function page(hoverStartsTransition: boolean) {
  let frames = 0;
  const running: object[] = [{ id: 'a spinner already running', playState: 'running', pending: false }];
  const win = {
    requestAnimationFrame: (callback: () => void) => {
      frames += 1;
      setTimeout(callback, 0);
      return frames;
    },
  };
  // getAnimations hands out the same objects each time, as the browser does.
  const doc = { defaultView: win, getAnimations: () => running as Animation[] };
  const el = {
    ownerDocument: doc,
    getBoundingClientRect: () => ({ left: 10, top: 20, width: 90, height: 18 }),
  } as unknown as Element;
  const hovered: string[] = [];
  const driver = {
    trusted: () => true,
    hover: () => {
      hovered.push('hover');
      if (hoverStartsTransition) running.push({ playState: 'idle', pending: true });
      return Promise.resolve();
    },
  } as unknown as InputDriver;
  return { el, driver, hovered, frames: () => frames };
}

describe('a pointer arriving before the press', () => {
  const aim = (el: Element) => ({ ok: true as const, target: el, x: 55, y: 29 });

  it('presses at once after a hover that changed nothing and started nothing, waiting for no frame', async () => {
    const p = page(false);
    const landed = await arriveAt(p.el, aim(p.el), {} as DomAccess, p.driver);
    expect(p.hovered).toEqual(['hover']);
    expect(landed).toEqual(aim(p.el));
    expect(p.frames()).toBe(0);
  });

  it('waits frame by frame after a hover that started a transition, until the box has held still', async () => {
    const p = page(true);
    const landed = await arriveAt(p.el, aim(p.el), {} as DomAccess, p.driver);
    expect(landed).toEqual(aim(p.el));
    expect(p.frames()).toBeGreaterThanOrEqual(2);
  });
});

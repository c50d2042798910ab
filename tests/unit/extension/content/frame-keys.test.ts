import { describe, expect, it } from 'vitest';
import { FrameKeys } from '../../../../extension/content/frame-keys';

type Listener = (event: { data: unknown; source: object | null; origin: string }) => void;

/**
 * A window as FrameKeys uses it. The browser stamps each message with its sender's window and origin; here a child's
 * `parent` is a handle that delivers to the real parent with that child as the source, as the browser would.
 */
class FakeWindow {
  readonly listeners: Listener[] = [];
  parent: { postMessage(data: unknown): void } = this;
  constructor(readonly origin: string) {}

  addEventListener(_type: 'message', listener: Listener): void {
    this.listeners.push(listener);
  }

  /** A message posted to this window by `source` (of `origin`). */
  deliver(data: unknown, source: object, origin: string): void {
    for (const listener of this.listeners) listener({ data, source, origin });
  }

  postMessage(data: unknown): void {
    // Posted to a child by its parent (the parent's ask): the child sees its parent handle as the source.
    this.deliver(data, this.parent, 'parent');
  }

  /** Makes this a frame of `parent`: what it posts up arrives there from this window and its origin. */
  inside(parent: FakeWindow): this {
    this.parent = { postMessage: (data) => parent.deliver(data, this, this.origin) };
    return this;
  }
}

const asWindow = (win: FakeWindow): Window => win as unknown as Window;
const iframe = (win: FakeWindow): Element => ({ contentWindow: win, isConnected: true }) as unknown as Element;

describe('frame names: a frame is placed where its own iframe is, whatever another frame claims', () => {
  it('places the bank frame at its iframe when the page\'s frame said the bank\'s key first, before the parent listened', () => {
    const top = new FakeWindow('http://shop.test:8080');
    // The page's own script hears every hello posted to the top window, from the start.
    const heard: string[] = [];
    top.addEventListener('message', (event) => {
      const hello = (event.data as { deputyFrameHello?: unknown }).deputyFrameHello;
      if (typeof hello === 'string') heard.push(hello);
    });
    const bank = new FakeWindow('http://bank.test:8080').inside(top);
    const offers = new FakeWindow('http://ads.test:8080').inside(top);

    // The bank frame's content script says hello before the top frame's content script listens (it loads late).
    const bankKeys = new FrameKeys(() => 'bank-key');
    bankKeys.listen(asWindow(bank));
    expect(heard).toEqual(['bank-key']);
    const topKeys = new FrameKeys(() => 'top-key');
    topKeys.listen(asWindow(top));
    // The page has its offers frame claim the key it heard, before the bank frame is asked again.
    offers.parent.postMessage({ deputyFrameHello: heard[0] });

    const offersFrame = iframe(offers);
    const bankFrame = iframe(bank);
    const offersName = topKeys.keyOf(offersFrame);
    expect(topKeys.keyOf(bankFrame)).toBeNull(); // asked: the bank frame says hello again
    const bankName = topKeys.keyOf(bankFrame);

    // The name the bank frame reports with its snapshot and its input leads to its own iframe, never the offers one.
    expect(topKeys.frameOf(bankKeys.ownKey ?? '')).toBe(bankFrame);
    expect(bankName).toBe(bankKeys.ownKey);
    expect(offersName).not.toBe(bankKeys.ownKey);
    expect(bankKeys.ownKey).toBe('http://bank.test:8080 bank-key');
    expect(topKeys.ownKey).toBeUndefined();
  });

  it('keeps a name with the first window of its origin that said it', () => {
    const top = new FakeWindow('http://shop.test:8080');
    const topKeys = new FrameKeys(() => 'top-key');
    topKeys.listen(asWindow(top));
    const first = new FakeWindow('http://bank.test:8080').inside(top);
    const second = new FakeWindow('http://bank.test:8080').inside(top);
    first.parent.postMessage({ deputyFrameHello: 'k1' });
    second.parent.postMessage({ deputyFrameHello: 'k1' });
    const firstFrame = iframe(first);
    const name = topKeys.keyOf(firstFrame) ?? '';
    expect(topKeys.keyOf(iframe(second))).toBeNull();
    expect(topKeys.frameOf(name)).toBe(firstFrame);
  });
});

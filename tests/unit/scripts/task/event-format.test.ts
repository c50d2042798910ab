import { describe, expect, it } from 'vitest';
import { formatEvent } from '../../../../scripts/task/event-format';

const step = (text: string, result: string | null, ok: boolean | null = true) =>
  formatEvent({ type: 'step', step: 3, callId: 'c', tool: 'click', text, status: 'finished', ok, result })[0];

describe('a step line in the terminal', () => {
  it('says the action once, and only what the result adds after it', () => {
    const lines = [
      step('Clicked [9] button "Add to cart"', 'Clicked [9] button "Add to cart" (trusted input)'),
      step('Clicked [9] button "Add to cart"', 'Clicked [9] button "Add to cart" (trusted input); the cart shows 1 item'),
      step('Clicked [9] button "Add to cart"', 'Clicked [9] button "Add to cart"\nmore lines for the model'),
      step('Opened https://shop.test/cart', 'Navigated to https://shop.test/cart (Cart)'),
      step('Clicked [4] link "Docs"', 'The element is gone: take a new snapshot', false),
      step('Typed "mug" into [3] textbox "Search"', 'Typed "mug" into [3] textbox "Search" (synthetic events: the debugger could not attach)'),
    ];
    expect(lines).toEqual([
      '  3. Clicked [9] button "Add to cart"',
      '  3. Clicked [9] button "Add to cart" -> the cart shows 1 item',
      '  3. Clicked [9] button "Add to cart"',
      '  3. Opened https://shop.test/cart -> Navigated to https://shop.test/cart (Cart)',
      '  3. Clicked [4] link "Docs" -> failed: The element is gone: take a new snapshot',
      '  3. Typed "mug" into [3] textbox "Search" -> (with page events rather than real mouse and keyboard: the debugger could not attach)',
    ]);
    for (const line of lines) expect(line).not.toMatch(/trusted input|synthetic/);
  });
});

import { describe, expect, it } from 'vitest';
import { StepRecord } from '../../../../shared/agent/agent-state';
import { type PageView, buildPrompt } from '../../../../shared/agent/build-prompt';
import { nextCall } from '../../../../scripts/demo/scripted-model';
import { runningState } from '../../shared/agent/support/running-state';

/** The demo shop's front page: the cart count at the top, the account link far below it. */
function shop(cart: number): string {
  const lines = ['Page: Demo shop — https://shop.test/', `[1] link "Cart (${cart})"`, '[2] button "Add Pocket Buds earphones to cart"'];
  for (let i = 0; i < 40; i += 1) lines.push(`Review ${i}: good sound for the price.`);
  lines.push('[3] link "Account"');
  return lines.join('\n');
}

/** The task after the plan and the click on "Add Pocket Buds", as the wire carries it in the given page view. */
function request(pageView: PageView) {
  const calls = [
    { id: 'c0', name: 'update_plan', arguments: '{}' },
    { id: 'c1', name: 'click', arguments: '{"ref":2}' },
  ];
  const steps = [shop(0), shop(0), shop(1)].map((text, index) =>
    StepRecord.parse({
      index,
      startedAt: index,
      observation: { url: 'https://shop.test/', title: 'Demo shop', hash: `h${index}-${text.length}`, chars: text.length, text },
      reply: index < 2 ? { text: '', toolCalls: [calls[index]] } : null,
      calls: index < 2 ? [{ ...calls[index], status: 'finished', result: { ok: true, content: 'done' } }] : [],
    }),
  );
  const state = runningState('Buy the cheapest earphones', 'https://shop.test/', steps);
  const built = buildPrompt(state, 'system', [], { keepObservations: 3, maxPromptChars: 1_000_000, attachScreenshot: false, pageView });
  return {
    messages: built.request.messages.map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
        : { role: m.role, content: m.content },
    ),
  };
}

describe("the demo's scripted model", () => {
  it('finds the next element on the page whether it was sent whole or as what changed since a page before it', () => {
    const diff = request('diff');
    // The page after the click went as what changed (the cart line): the account link is only in the page before.
    const current = diff.messages.at(-2)?.content ?? '';
    expect(current).toMatch(/^\[Step 3 page: changes since step \d+'s page\]/);
    expect(current).not.toContain('Account');
    for (const wire of [diff, request('full')]) expect(nextCall(wire)).toEqual({ name: 'click', arguments: JSON.stringify({ ref: 3 }) });
  });
});

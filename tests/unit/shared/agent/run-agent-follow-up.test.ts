import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../../fixtures/fake-provider/fake-provider-server';
import { resumeAgent, startAgent, withFollowUp } from '../../../../shared/agent/run-agent';
import { call, harness } from './support/agent-harness';
import { type FakePage, createFakeWeb } from './support/fake-web';
import { providerFor } from './support/provider-clients';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const SHOP: FakePage[] = [
  {
    url: 'https://shop.example/mug',
    title: 'Red mug',
    elements: [
      { ref: 1, role: 'button', name: 'Add to cart' },
      { ref: 2, role: 'link', name: 'Cart', to: 'https://shop.example/cart' },
    ],
  },
  { url: 'https://shop.example/cart', title: 'Cart (1)', elements: [{ ref: 1, role: 'link', name: 'Checkout' }], body: '1 x Red mug' },
];

describe('a follow-up to an ended task', () => {
  it('goes on with the earlier turns in the prompt, the follow-up after them, and ends again with its own outcome', async () => {
    const web = createFakeWeb(SHOP, 'https://shop.example/mug');
    const h = harness(web, providerFor('openai-plain', fake), { limits: { maxSteps: 2 } });
    fake.enqueue({ text: 'Adding it now.', ...call('click', { ref: 1 }) }, call('done', { success: true, summary: 'Added the mug.' }));
    const first = await startAgent(h.deps, { taskId: 't1', task: 'Add the red mug to the cart', startUrl: 'https://shop.example/mug' });
    expect(first.status).toBe('completed');

    const continued = withFollowUp(JSON.parse(JSON.stringify(first)), 'Now open the cart', 1_800_000_000_000);
    expect(continued).toMatchObject({ status: 'running', outcome: null, followUps: [{ text: 'Now open the cart', beforeStep: 2 }] });
    // The first turn used the whole step budget of 2: the follow-up gets a budget of its own.
    fake.enqueue(call('click', { ref: 2 }), call('done', { success: true, summary: 'The cart shows the mug.' }));
    const second = await resumeAgent(h.deps, continued);

    expect(second.status).toBe('completed');
    expect(second.outcome?.summary).toBe('The cart shows the mug.');
    expect(web.url()).toBe('https://shop.example/cart');
    expect(second.steps).toHaveLength(4);
    const prompt = fake.requests[2]?.text ?? '';
    expect(prompt).toContain('Add the red mug to the cart');
    expect(prompt).toContain('Adding it now.');
    expect(prompt).toContain('Added the mug.');
    expect(prompt).toContain('Follow-up from the user');
    expect(prompt).toContain('Now open the cart');
    // The follow-up comes after the earlier turn and before the page it is acted on.
    expect(prompt.indexOf('Added the mug.')).toBeLessThan(prompt.indexOf('Now open the cart'));
    expect(prompt.indexOf('Now open the cart')).toBeLessThan(prompt.lastIndexOf('Current page'));
    expect(fake.remaining()).toBe(0);
  });

  it('refuses a saved state it cannot read, saying so', () => {
    expect(() => withFollowUp({ version: 2 }, 'go on', 1)).toThrow(/cannot be continued/);
  });
});

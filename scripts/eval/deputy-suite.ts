import { serveDemoSite } from '../demo/serve-demo-site';
import { type EvalTask, type OpenSuite, readStorage } from './eval-suite';

/** The host name the demo shop is served under in the eval's browser (mapped to loopback by the eval's host rules). */
const HOST = 'shop.test';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Deputy's own multi-step tasks on the bundled demo shop (products, cart, account form, catalogue search, support
 * chat). Each is judged by the state it leaves in the shop (its stored cart, account, wishlist, the support side of
 * the chat), never by what the agent said about itself.
 */
export async function openDeputySuite(): Promise<OpenSuite> {
  const site = await serveDemoSite();
  const address = new URL(site.url);
  address.hostname = HOST;
  const url = (path: string): string => new URL(path, address).toString();
  const task = (name: string, text: string, path: string, judge: EvalTask['judge']): EvalTask => ({ id: `deputy/${name}`, suite: 'deputy', text, url: url(path), flow: 'task', judge });

  const tasks: EvalTask[] = [
    task('shop-cheapest-headphones', 'Add the cheapest headphones to the cart (one of them), and nothing else.', '/', async (_target, browser) => {
      const cart = await readStorage(browser, url('/cart.html'), 'cart');
      const lines = Array.isArray(cart) ? cart.filter(isRecord) : [];
      const solved = lines.length === 1 && lines[0]?.id === 'pocket-buds' && lines[0]?.qty === 1;
      return { solved, reason: `The cart holds ${JSON.stringify(lines)}; expected one Pocket Buds ($39, the cheapest).` };
    }),
    task(
      'account-form',
      'Save my account details: full name Ada Lovelace, email ada@example.org, phone +44 20 7946 0000, country United Kingdom, and no newsletter.',
      '/account.html',
      async (_target, browser) => {
        const saved = await readStorage(browser, url('/account.html'), 'account');
        const expected = { fullName: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0000', country: 'GB', newsletter: false };
        if (!isRecord(saved)) return { solved: false, reason: 'No account details were saved.' };
        const wrong = Object.entries(expected).filter(([key, value]) => {
          const got = saved[key];
          return (typeof got === 'string' ? got.trim() : got) !== value;
        });
        return {
          solved: wrong.length === 0,
          reason: wrong.length === 0 ? 'The saved details match.' : `Saved details differ in ${wrong.map(([key]) => `${key} (${JSON.stringify(saved[key])})`).join(', ')}.`,
        };
      },
    ),
    task(
      'catalogue-search',
      'Search the catalogue for speakers, look through every page of results, and add the speaker with the longest battery life to my wishlist (only that one).',
      '/search.html',
      async (_target, browser) => {
        const wishlist = await readStorage(browser, url('/search.html'), 'wishlist');
        const solved = Array.isArray(wishlist) && wishlist.length === 1 && wishlist[0] === 'summit-xl';
        return { solved, reason: `The wishlist holds ${JSON.stringify(wishlist ?? [])}; expected only the Summit XL (26 h, on the second page).` };
      },
    ),
    {
      id: 'deputy/support-refund',
      suite: 'deputy',
      text: 'My order arrived broken. Get a full refund for it from support (not a store credit).',
      flow: 'chat',
      facts: { order_number: '48213' },
      // The case starts with the chat open, as the side panel's "Open chat" leaves it.
      async prepare(target) {
        await target.goto(url('/'), { waitUntil: 'load' });
        await target.click('.chat-launcher');
        await target.waitForSelector('.chat-window:not([hidden])');
      },
      async judge(target) {
        const log = await target.$$eval('.chat-log .chat-message', (items) => items.map((item) => `${item.getAttribute('data-author') ?? ''}: ${item.querySelector('.chat-text')?.textContent ?? ''}`)).catch(() => null);
        if (!log) return { solved: false, reason: 'The shop page with the chat was left, so its conversation could not be read.' };
        const refunded = log.some((line) => /^agent: .*full refund is on its way/.test(line));
        const credited = log.some((line) => /^agent: .*store credit to your account/.test(line));
        return {
          solved: refunded && !credited,
          reason: refunded ? (credited ? 'Support both refunded and gave store credit.' : 'Support confirmed the full refund.') : `Support did not confirm a refund (${log.length} messages in the chat).`,
        };
      },
    },
  ];
  return { name: 'deputy', tasks, close: () => site.close() };
}

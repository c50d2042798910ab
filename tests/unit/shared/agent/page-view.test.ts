import { describe, expect, it } from 'vitest';
import { type AgentState, StepRecord } from '../../../../shared/agent/agent-state';
import { DIFF_LEGEND, type PageView, buildPrompt, diffHeader, verbatimFrom } from '../../../../shared/agent/build-prompt';
import { applyPageDiff, pageDiff } from '../../../../shared/agent/page-diff';
import { webSystemPrompt } from '../../../../shared/agent/system-prompt';
import { runningState } from './support/running-state';
import { currentView } from '../../../fixtures/fake-provider/prompt-view';
import type { RecordedRequest } from '../../../fixtures/fake-provider/scripted-reply';

/** A shop page of 60 lines with refs; `n` changes the cart line and the status line, as an action would. */
function page(n: number, url = 'https://shop.example/'): string {
  const lines = [`- heading "Shop" [ref=e1]`, `- text "Cart: ${n} items" [ref=e2]`];
  for (let i = 0; i < 56; i += 1) lines.push(`- link "Product ${i}, $${i + 3}.99" [ref=e${i + 3}]`);
  lines.push(`- status "${n === 0 ? 'Welcome' : `Added item ${n}`}" [ref=e60]`, `- button "Checkout" [ref=e61]`);
  return url === 'https://shop.example/' ? lines.join('\n') : lines.map((line) => `${line} (${url})`).join('\n');
}

function stateOf(pages: { text: string; url?: string; calls?: string[] }[]): AgentState {
  const steps = pages.map((p, index) =>
    StepRecord.parse({
      index,
      startedAt: index,
      observation: {
        url: p.url ?? 'https://shop.example/',
        title: 'Shop',
        hash: `h${p.text.length}-${index}`,
        chars: p.text.length,
        text: p.text,
      },
      reply:
        index === pages.length - 1
          ? null
          : {
              text: '',
              toolCalls: (p.calls ?? ['click']).map((name, k) => ({ id: `c${index}-${k}`, name, arguments: '{}' })),
            },
      calls: (p.calls ?? ['click']).map((name, k) => ({
        id: `c${index}-${k}`,
        name,
        arguments: '{}',
        status: 'finished',
        result: { ok: true, content: 'done' },
      })),
    }),
  );
  return runningState('Add items', 'https://shop.example/', steps);
}

const build = (state: AgentState, pageView: PageView) =>
  buildPrompt(state, 'system', [], {
    keepObservations: 100,
    maxPromptChars: 1_000_000,
    attachScreenshot: false,
    pageView,
  });
const pageMessages = (state: AgentState, pageView: PageView) =>
  build(state, pageView)
    .request.messages.filter((m) => m.role === 'user' && m.content.includes('<untrusted_page'))
    .map((m) => m.content);
/** The request as the wire carries it, for the scripted models' reading of the current page. */
const asWire = (state: AgentState, pageView: PageView): RecordedRequest =>
  ({
    path: '/v1/chat/completions',
    json: { messages: build(state, pageView).request.messages.map((m) => ({ role: m.role, content: m.content })) },
  }) as unknown as RecordedRequest;

describe('pageDiff', () => {
  it('is empty for the same page and rebuilds the later page from the earlier one', () => {
    expect(pageDiff(page(1), page(1))).toBe('');
    const diff = pageDiff(page(1), page(2));
    expect(diff).toContain('-- text "Cart: 1 items" [ref=e2]');
    expect(diff).toContain('+- text "Cart: 2 items" [ref=e2]');
    expect(diff.length).toBeLessThan(page(2).length / 4);
    expect(applyPageDiff(page(1), diff)).toBe(page(2));
  });

  it('round-trips added, removed and moved lines at the start, middle and end', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round += 1) {
      const before = Array.from({ length: random(30) }, () => `line ${random(8)}`);
      const after = [...before];
      for (let edits = random(6); edits > 0; edits -= 1) {
        const at = random(after.length + 1);
        if (random(2) === 0) after.splice(at, 1);
        else after.splice(at, 0, `new ${random(8)}`);
      }
      const a = before.join('\n');
      const b = after.join('\n');
      expect(applyPageDiff(a, pageDiff(a, b))).toBe(b);
    }
  });

  it('refuses hunks that do not fit the page', () => {
    expect(() => applyPageDiff('a\nb', pageDiff('a\nx', 'a\ny'))).toThrow(/does not fit/);
  });
});

describe('the diff page view', () => {
  const pages = Array.from({ length: 9 }, (_, i) => ({ text: page(i) }));
  const DIFF = /^\[Step (\d+) page: changes since step (\d+)'s page\]\n<untrusted_page url="[^"]+" title="Shop">\n@@ /;
  const masked = (state: AgentState, keepObservations: number) =>
    buildPrompt(state, 'system', [], { keepObservations, maxPromptChars: 1_000_000, attachScreenshot: false, pageView: 'diff' }).request.messages.map((m) => m.content);

  it('sends what changed since a whole page in the prompt, the whole page only where none is, and never loses a line', () => {
    const messages = pageMessages(stateOf(pages), 'diff');
    expect(messages).toHaveLength(9);
    // Nothing is masked: the first page goes whole, tagged with its step, and every later one is a diff against it.
    expect(messages[0]).toMatch(/^<untrusted_page url="https:\/\/shop.example\/" title="Shop" step="1">\n/);
    messages.slice(1).forEach((message, i) => {
      expect(DIFF.exec(message)?.slice(1), `step ${i + 2}`).toEqual([String(i + 2), '1']);
      expect(message.length).toBeLessThan(page(i + 1).length / 2);
    });
    // The scripted models' reading of the current page rebuilds it exactly.
    for (let n = 1; n <= pages.length; n += 1)
      expect(currentView(asWire(stateOf(pages.slice(0, n)), 'diff'))).toContain(page(n - 1));
  });

  it('sends whole the first page after the masked ones, and bases later pages on it', () => {
    // Step 9 with three pages kept: steps 1-5 are masked (in a block of five), step 6 is the first page shown.
    const messages = masked(stateOf(pages), 3).filter((m) => m.includes('<untrusted_page'));
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain('step="6">');
    expect(messages[0]).toContain(page(5));
    for (const [i, message] of messages.slice(1).entries()) expect(DIFF.exec(message)?.slice(1)).toEqual([String(i + 7), '6']);
  });

  it('bases a page on the one the task came back to when that says less than the page before the action', () => {
    const product = 'https://shop.example/p/1';
    const state = stateOf([{ text: page(0) }, { text: page(0, product), url: product }, { text: page(1) }]);
    const messages = pageMessages(state, 'diff');
    // The product page shares no line with the list: whole. Back on the list, the list of step 1 is the base.
    expect(messages[1]).toContain('step="2">');
    expect(DIFF.exec(messages[2]!)?.slice(1)).toEqual(['3', '1']);
    expect(messages[2]!.length).toBeLessThan(page(1).length / 4);
    expect(currentView(asWire(state, 'diff'))).toContain(page(1));
  });

  it('keeps every message sent before byte-identical in the next step, between two boundaries of the masking', () => {
    for (const keep of [100, 3]) {
      for (let n = 2; n <= pages.length; n += 1) {
        if (verbatimFrom(n - 1, keep) !== verbatimFrom(n - 2, keep)) continue;
        const before = masked(stateOf(pages.slice(0, n - 1)), keep);
        const after = masked(stateOf(pages.slice(0, n)), keep);
        // All but the last message (this turn's verification and plan) are sent again unchanged (the cache marker moves).
        expect(after.slice(0, before.length - 1), `keep ${keep}, step ${n}`).toEqual(before.slice(0, -1));
      }
    }
  });

  it('sends the whole page when the change is not smaller than it, and after a full_page call', () => {
    const other = stateOf([
      { text: page(0) },
      { text: page(1, 'https://elsewhere.example/'), url: 'https://elsewhere.example/' },
    ]);
    expect(pageMessages(other, 'diff')[1]).toMatch(/^<untrusted_page url="https:\/\/elsewhere.example\/" title="Shop" step="2">\n/);
    const asked = stateOf([{ text: page(0) }, { text: page(1), calls: ['full_page'] }, { text: page(2) }]);
    const messages = pageMessages(asked, 'diff');
    expect(DIFF.exec(messages[1]!)?.slice(1)).toEqual(['2', '1']);
    expect(messages[2]).toMatch(/^<untrusted_page [^>]* step="3">\n/);
    // Asked for on a page that did not change: the whole page, not a pointer to the diff before it.
    const same = stateOf([{ text: page(0) }, { text: page(1), calls: ['full_page'] }, { text: page(1) }]);
    same.steps[2]!.observation.hash = same.steps[1]!.observation.hash;
    expect(pageMessages(same, 'diff')[2]).toContain(page(1));
  });

  it('tells the model how to read it in the system prompt, once, and only in the diff view', () => {
    const diff = webSystemPrompt({ mode: 'act', placeholders: [], allowedSites: [], pageView: 'diff' });
    expect(diff).toContain(DIFF_LEGEND);
    expect(DIFF_LEGEND).toContain(diffHeader(9, 7));
    expect(webSystemPrompt({ mode: 'act', placeholders: [], allowedSites: [], pageView: 'full' })).not.toContain(DIFF_LEGEND);
    expect(webSystemPrompt({ mode: 'act', placeholders: [], allowedSites: [] })).not.toContain(DIFF_LEGEND);
  });

  it('is off in the full page view: every page whole, without a step', () => {
    for (const message of pageMessages(stateOf(pages), 'full')) {
      expect(message).toMatch(/^<untrusted_page url="https:\/\/shop.example\/" title="Shop">\n/);
      expect(message).not.toContain('changes since');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { PageAgent } from '../../../../../extension/background/page/page-agent';
import type { TabPorts } from '../../../../../extension/background/page/tab-driver';
import { SETTLE_PART } from '../../../../../extension/background/page/page-settle';
import type { TabState } from '../../../../../extension/platform/tab-control';
import type { FrameSnapshot } from '../../../../../shared/perception/frame-snapshot';
import { ContentChannel, okResponse, parseRequest } from '../../../../../shared/protocol';

type Handler = (method: string, params: Record<string, unknown>) => unknown;

/** A tab whose frames answer through `handler`, as content scripts would, and whose tab state the test controls. */
function fakeTab(handler: Handler, frames = [0], extra: Partial<ConstructorParameters<typeof PageAgent>[0]> = {}) {
  const state: TabState = { id: 1, url: 'https://shop.test/', title: 'Shop', status: 'complete', active: true, windowId: 1 };
  const calls: string[] = [];
  const tabs: TabPorts = {
    state: () => Promise.resolve({ ...state }),
    list: () => Promise.resolve([{ ...state }]),
    navigate: (_id, url) => {
      calls.push(`navigate ${url}`);
      state.url = url;
      return Promise.resolve();
    },
    back: () => Promise.reject(new Error('Cannot find a next page in history.')),
    forward: () => Promise.resolve(),
    reload: () => Promise.resolve(),
    create: (url) => Promise.resolve({ ...state, id: 2, url: url ?? '' }),
    activate: () => Promise.resolve(),
    close: () => Promise.resolve(),
    waitForLoad: () => Promise.resolve({ ...state }),
  };
  const agent = new PageAgent({
    frames: {
      listFrames: () => Promise.resolve(frames),
      sendToFrame: async (_tab, frameId, message) => {
        const parsed = parseRequest(ContentChannel, message);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const { id, method, params } = parsed.request;
        return okResponse(id, await handler(method, { ...(params as Record<string, unknown>), frameId }));
      },
    },
    tabs,
    sleep: () => Promise.resolve(),
    ...extra,
  });
  return { agent, state, calls };
}

function snapshot(items: FrameSnapshot['items'], extra: Partial<FrameSnapshot> = {}): FrameSnapshot {
  return { token: 'doc-1', url: 'https://shop.test/', title: 'Shop', inlined: false, items, above: 0, below: 0, dialogs: [], ...extra };
}

const button = (ref: number, name: string) => ({ k: 'el' as const, ref, role: 'button', name, ann: [] });

describe('PageAgent', () => {
  it('numbers elements tab-wide, so frames with the same local numbers never collide', async () => {
    const { agent } = fakeTab(
      (method, params) =>
        method === 'snapshot' && params.frameId === 0
          ? snapshot([button(1, 'Top'), { k: 'frame', key: 'chat' }])
          : snapshot([button(1, 'In chat')], { token: 'doc-2', frameKey: 'chat' }),
      [0, 9],
    );
    const shot = await agent.snapshot(1, { mode: 'viewport' });
    expect(shot.text.split('\n').slice(1)).toEqual(['[1] button "Top"', '[2] button "In chat"']);
    expect(shot.elements.map((el) => el.frameId)).toEqual([0, 9]);
  });

  it('sends an action to the frame that holds the element, with its local number', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const { agent } = fakeTab((method, params) => {
      if (method === 'snapshot') return params.frameId === 0 ? snapshot([{ k: 'frame', key: 'f' }]) : snapshot([button(4, 'Send')], { token: 'doc-9', frameKey: 'f' });
      seen.push(params);
      return { token: 'doc-9', url: 'https://shop.test/', ok: true, message: 'clicked [@]', changed: true, evidence: ['1 changes on the page'] };
    }, [0, 3]);
    await agent.snapshot(1, { mode: 'page' });
    const outcome = await agent.act(1, { kind: 'click', ref: 1 });
    const { timings, ...reported } = outcome;
    expect(reported).toEqual({ ok: true, message: 'Clicked [1] button "Send"', changed: true, evidence: ['1 changes on the page'] });
    // Where the action's time went, by part, for the task's trace. The settle's own parts are listed when they took
    // a millisecond or more, which a busy machine decides: they are parts of the settle, not beside it.
    expect(Object.keys(timings ?? {}).filter((part) => !part.startsWith(SETTLE_PART))).toEqual(['input lease', 'act in page', 'tab settle (after act)', 'verdict']);
    expect(seen[0]).toMatchObject({ frameId: 3, target: { ref: 4, token: 'doc-9', role: 'button', name: 'Send' } });
  });

  it('gives back the numbers of a snapshot from before a restart, for the top page only, and keeps new numbers clear of them', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const { agent } = fakeTab((method, params) => {
      if (method === 'snapshot') return snapshot([button(1, 'Place order')], { token: 'doc-new' });
      seen.push(params);
      // The content script re-finds the element by role and name: the restored number's document is gone.
      return { token: 'doc-new', url: 'https://shop.test/', ok: true, message: 'clicked [@]', changed: true, evidence: [], replacedBy: 1 };
    });
    const restored = agent.restoreRefs(1, 'https://shop.test/', [
      { ref: 7, role: 'button', name: 'Place order', frame: 0 },
      { ref: 8, role: 'button', name: 'Send', frame: 4 },
      { ref: 9, role: 'link', name: 'Old record without a frame' },
    ]);
    expect(restored).toBe(1);
    const outcome = await agent.act(1, { kind: 'click', ref: 7 });
    expect(outcome).toMatchObject({ ok: true, message: 'Clicked [10] button "Place order"' });
    expect(seen[0]).toMatchObject({ frameId: 0, target: { role: 'button', name: 'Place order', url: 'https://shop.test/' } });
    expect(seen[0]?.target).not.toMatchObject({ token: 'doc-new' });
    // An element in a frame is not guessed at: the model is told to look again.
    expect((await agent.act(1, { kind: 'click', ref: 8 })).message).toMatch(/no element \[8\].*take a snapshot/);
    // A snapshot taken now numbers its elements after the restored ones.
    expect((await agent.snapshot(1, { mode: 'viewport' })).elements.map((e) => e.ref)).toEqual([10]);
  });

  it('answers a number it never gave with what to do, without asking the page', async () => {
    const { agent } = fakeTab(() => snapshot([button(1, 'Only')]));
    await agent.snapshot(1, { mode: 'viewport' });
    const outcome = await agent.act(1, { kind: 'click', ref: 42 });
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toBe("There is no element [42] in this tab's snapshots (numbers go up to 1): take a snapshot and use a number from it");
  });

  it('turns a gone element into a list of numbered candidates', async () => {
    const { agent } = fakeTab((method) =>
      method === 'snapshot'
        ? snapshot([button(1, 'Delete')])
        : { token: 'doc-1', url: 'https://shop.test/', ok: false, message: '[@] is gone', changed: false, evidence: [], candidates: [{ ref: 7, role: 'button', name: 'Delete' }] },
    );
    await agent.snapshot(1, { mode: 'viewport' });
    const outcome = await agent.act(1, { kind: 'click', ref: 1 });
    expect(outcome.message).toBe('Element [1] button "Delete" is gone; closest candidates: [2] button "Delete". Take a new snapshot before acting');
  });

  it('rejects malformed actions and non-web addresses with a sentence saying what is wrong', async () => {
    const { agent, calls } = fakeTab(() => snapshot([]));
    expect((await agent.act(1, { kind: 'click' })).message).toMatch(/^Invalid action: ref:/);
    expect((await agent.act(1, { kind: 'navigate', url: 'file:///etc/passwd' })).message).toBe('only http and https addresses can be opened, not file:');
    expect((await agent.act(1, { kind: 'navigate', url: 'shop' })).message).toContain('is not a full address');
    expect((await agent.act(1, { kind: 'back' })).message).toBe(
      'cannot go back: Cannot find a next page in history (the task opened this tab here, or the page replaced its history entries by script); open the page you want with navigate',
    );
    expect(calls).toEqual([]);
    const opened = await agent.act(1, { kind: 'navigate', url: 'https://shop.test/cart' });
    expect(opened.ok).toBe(true);
    expect(calls).toEqual(['navigate https://shop.test/cart']);
  });

  it('does not go back out of the web: from the first page of a task the tab stays, and the model is told why', async () => {
    const history = ['about:blank', 'https://shop.test/'];
    let at = 1;
    const tab = (): TabState => ({ id: 1, url: history[at] ?? '', title: 'Shop', status: 'complete', active: true, windowId: 1 });
    const moves: string[] = [];
    const tabs: TabPorts = {
      state: () => Promise.resolve(tab()),
      list: () => Promise.resolve([tab()]),
      navigate: () => Promise.resolve(),
      back: () => {
        moves.push('back');
        at -= 1;
        return Promise.resolve();
      },
      forward: () => {
        moves.push('forward');
        at += 1;
        return Promise.resolve();
      },
      reload: () => Promise.resolve(),
      create: () => Promise.resolve(tab()),
      activate: () => Promise.resolve(),
      close: () => Promise.resolve(),
      waitForLoad: () => Promise.resolve(tab()),
    };
    const { agent } = fakeTab(() => snapshot([]), [0], { tabs });
    const outcome = await agent.act(1, { kind: 'back' });
    expect(outcome).toMatchObject({ ok: false, changed: false });
    expect(outcome.message).toBe('cannot go back: the page before https://shop.test/ in this tab is a blank tab, not a web page, so the tab stayed where it was; open the page you want with navigate');
    expect(moves).toEqual(['back', 'forward']);
    expect(tab().url).toBe('https://shop.test/');
  });

  it('reports a click that navigated the page away as done, with the new address', async () => {
    const { agent, state } = fakeTab((method) => {
      if (method === 'snapshot') return snapshot([button(1, 'Checkout')]);
      state.url = 'https://shop.test/checkout';
      throw new Error('The message port closed before a response was received.');
    });
    await agent.snapshot(1, { mode: 'viewport' });
    const outcome = await agent.act(1, { kind: 'click', ref: 1 });
    expect(outcome).toMatchObject({ ok: true, message: 'Acted on [1] button "Checkout"; the page navigated', changed: true });
    expect(outcome.evidence[0]).toBe('URL is now https://shop.test/checkout');
  });

  it('waits for the answers an action asked for (an autocomplete), then for the page to render them', async () => {
    const order: string[] = [];
    let open = 0;
    const { agent } = fakeTab(
      (method) => {
        if (method === 'snapshot') return snapshot([{ k: 'el', ref: 1, role: 'combobox', name: 'City', ann: [] }]);
        if (method === 'settle') {
          order.push('render');
          return { mutations: 4, timedOut: false, waitedMs: 150, readyState: 'complete' };
        }
        order.push('type');
        open = 3;
        return { token: 'doc-1', url: 'https://shop.test/', ok: true, message: 'typed into [@]', changed: true, evidence: [] };
      },
      [0],
      {
        watchRequests: () => ({ inFlight: () => open, documentRequested: () => false, answered: () => [], sent: () => [], stop: () => order.push('stop') }),
        sleep: () => {
          open -= 1;
          order.push('wait');
          return Promise.resolve();
        },
      },
    );
    await agent.snapshot(1, { mode: 'viewport' });
    const outcome = await agent.act(1, { kind: 'type', ref: 1, text: 'Par' });
    expect(outcome.ok).toBe(true);
    expect(order).toEqual(['type', 'wait', 'wait', 'wait', 'render', 'stop']);
  });

  it('reports a page that could not be loaded as a failed step the model can act on, not as an ending', async () => {
    const { agent } = fakeTab(() => snapshot([]), [0], {
      loadFailure: () => Promise.resolve({ url: 'https://gone.test/', error: 'net::ERR_NAME_NOT_RESOLVED' }),
    });
    const outcome = await agent.act(1, { kind: 'navigate', url: 'https://gone.test/' });
    expect(outcome).toMatchObject({ ok: false, message: 'Opened https://gone.test/, but the page could not be loaded: net::ERR_NAME_NOT_RESOLVED' });
  });

  it('says when a search ran out of time instead of saying nothing was found', async () => {
    const { agent } = fakeTab((method) =>
      method === 'find' ? { token: 'doc-1', url: 'https://shop.test/', items: [], total: 0, complete: false } : snapshot([]),
    );
    const outcome = await agent.act(1, { kind: 'find', text: 'Item 190' });
    expect(outcome.message).toBe(
      'Found nothing matching "Item 190" in the part of the page searched before the search ran out of time (4 s; the page is very large). The text may still be further on: scroll to it, or search for something more specific',
    );
    const { agent: silent } = fakeTab((method) => {
      if (method === 'find') throw new Error('Timed out');
      return snapshot([]);
    });
    expect((await silent.act(1, { kind: 'find', text: 'x' })).message).toMatch(/ran out of time/);
  });

  it('ends a wait for a loading page as soon as it has loaded', async () => {
    let polls = 0;
    // The page answers the look the settle takes once it has loaded (nothing changes on it).
    const { agent, state } = fakeTab((method) => (method === 'settle' ? { mutations: 0, timedOut: false, waitedMs: 0, readyState: 'complete' } : snapshot([])), [0], {
      sleep: () => {
        polls += 1;
        if (polls === 3) state.status = 'complete';
        return Promise.resolve();
      },
    });
    state.status = 'loading';
    const outcome = await agent.act(1, { kind: 'wait', seconds: 20 });
    expect(outcome.message).toMatch(/^The page finished loading after \d+\.\d s$/);
    expect(polls).toBe(3);
  });

  it('settles a page no content script may answer from (a browser page, an extension store, a blank tab) once it has loaded, without asking it again', async () => {
    for (const url of ['chrome://settings/', 'https://chromewebstore.google.com/detail/x', 'about:blank', 'edge://extensions/']) {
      let polls = 0;
      let looks = 0;
      const { agent, state } = fakeTab(
        (method) => {
          if (method === 'settle') {
            looks += 1;
            throw new Error('Could not establish connection. Receiving end does not exist.');
          }
          return snapshot([]);
        },
        [0],
        {
          sleep: () => {
            polls += 1;
            if (polls === 2) state.status = 'complete';
            return Promise.resolve();
          },
        },
      );
      state.url = url;
      state.status = 'loading';
      const outcome = await agent.act(1, { kind: 'wait', seconds: 20 });
      expect(outcome.message, url).toMatch(/^The page finished loading after \d+\.\d s$/);
      // Two polls while it loaded, one look at it, and no more: it is not asked again until the quiet cap.
      expect([polls, looks], url).toEqual([2, 1]);
    }
    // An ordinary page that does not answer yet is asked again (its script may just be late).
    let looks = 0;
    const { agent, state } = fakeTab((method) => {
      if (method === 'settle') {
        looks += 1;
        if (looks < 3) throw new Error('Could not establish connection. Receiving end does not exist.');
        return { mutations: 0, timedOut: false, waitedMs: 0, readyState: 'complete' };
      }
      return snapshot([]);
    }, [0], {
      sleep: () => {
        state.status = 'complete';
        return Promise.resolve();
      },
    });
    state.status = 'loading';
    await agent.act(1, { kind: 'wait', seconds: 20 });
    expect(looks).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import type { HeldRequest } from '../../../../../extension/background/egress/egress-guard';
import { lateHeldLine, tellLateHeld } from '../../../../../extension/background/egress/late-held';

const held = (over: Partial<HeldRequest>): HeldRequest => ({
  id: 'r',
  url: 'http://evil.test:9/collect?card=4111',
  address: 'http://evil.test:9/collect',
  origin: 'http://evil.test:9',
  withQuery: true,
  method: 'GET',
  type: 'main_frame',
  fields: [],
  tabId: 12,
  newTab: true,
  formData: null,
  rawBody: false,
  at: 1,
  taskId: 't',
  ...over,
});

describe('telling what the guard held late', () => {
  it('names what the page tried, where, and that nothing was sent, for each kind of request', () => {
    expect(lateHeldLine(held({}))).toBe(
      "The page tried to open a window with data to http://evil.test:9/collect (http://evil.test:9, not an approved site) in tab 12; Deputy's egress guard blocked it and nothing was sent.",
    );
    expect(lateHeldLine(held({ method: 'POST', withQuery: false, fields: ['card'] }))).toContain('a window posting a form with data to http://evil.test:9/collect');
    expect(lateHeldLine(held({ newTab: false, withQuery: false, url: 'http://evil.test:9/collect', address: 'http://evil.test:9/collect' }))).toContain('open a page load to http://evil.test:9/collect');
    expect(lateHeldLine(held({ newTab: false, method: 'POST' }))).toContain('a form post with data');
    expect(lateHeldLine(held({ type: 'sub_frame', method: 'POST' }))).toContain('a POST request with data');
    // The query (where the data is) is never repeated: the address only.
    expect(lateHeldLine(held({}))).not.toContain('4111');
  });

  it("notes each one in the task's steps and gives the model a paragraph, once; nothing when nothing was held", async () => {
    const queue = [[held({ id: 'a' }), held({ id: 'b', address: 'http://evil.test:9/b', tabId: 13 })], []];
    const notes: string[] = [];
    const asked: [string, number][] = [];
    const ports = {
      taskId: 't',
      guard: {
        unreported: (taskId: string, tabId: number) => {
          asked.push([taskId, tabId]);
          return queue.shift() ?? [];
        },
      },
      note: (text: string) => {
        notes.push(text);
        return Promise.resolve();
      },
    };
    const text = await tellLateHeld(ports, 7);
    expect(asked).toEqual([['t', 7]]);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toContain('http://evil.test:9/b');
    expect(text).toContain('Blocked by Deputy');
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toEqual(notes.map((n) => `- ${n}`));
    expect(await tellLateHeld(ports, 7)).toBe('');
    expect(notes).toHaveLength(2);
  });
});

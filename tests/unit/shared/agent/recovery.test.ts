import { describe, expect, it } from 'vitest';
import type { CallRecord, StepRecord } from '../../../../shared/agent/agent-state';
import { DEFAULT_RECOVERY_LIMITS, detectTrouble } from '../../../../shared/agent/recovery';

function step(index: number, url: string, hash: string, calls: Partial<CallRecord>[], status?: StepRecord['observation']['status']): StepRecord {
  return {
    index,
    startedAt: index,
    observation: { url, title: 't', hash, chars: 1, text: null, elements: [], ...(status ? { status } : {}) },
    notices: [],
    reply: { text: '', toolCalls: [] },
    calls: calls.map((c, i) => ({ id: `c${index}_${i}`, name: 'click', arguments: '{"ref":1}', status: 'finished', classes: [], ...c })),
    usage: null,
    costUsd: null,
  };
}

const limits = DEFAULT_RECOVERY_LIMITS;

describe('detectTrouble', () => {
  it('says nothing about a task making progress', () => {
    const steps = [step(0, 'https://a/1', 'h1', [{}]), step(1, 'https://a/2', 'h2', [{ arguments: '{"ref":2}' }])];
    expect(detectTrouble(steps, { url: 'https://a/3', hash: 'h3' }, limits)).toEqual({ notices: [], stop: null });
  });

  it('warns about the same action repeated on a page it does not change, and stops past the limit', () => {
    const same = (n: number): StepRecord[] => Array.from({ length: n }, (_, i) => step(i, 'https://a/1', 'h', [{ arguments: '{"ref": 1}' }]));
    expect(detectTrouble(same(3), { url: 'https://a/1', hash: 'h' }, limits).notices[0]).toMatch(/^You have done the same action 3 times in a row \(click \{"ref":1\} on https:\/\/a\/1\)/);
    expect(detectTrouble(same(5), { url: 'https://a/1', hash: 'h' }, limits).stop).toMatch(/^Stopped: the same action was repeated 5 times/);
  });

  it('does not count the same action as repeated while each one changes the page (scrolling a long feed)', () => {
    const scrolls = Array.from({ length: 12 }, (_, i) => step(i, 'https://a/feed', `h${i}`, [{ name: 'scroll', arguments: '{"direction":"down"}' }]));
    const verdict = detectTrouble(scrolls, { url: 'https://a/feed', hash: 'h12' }, limits);
    expect(verdict.stop).toBeNull();
    expect(verdict.notices.some((n) => n.includes('same action'))).toBe(false);
    // Once the end of the feed is reached the page stops changing, and the same scroll counts again.
    const atEnd = [...scrolls.slice(0, 6), ...Array.from({ length: 5 }, (_, i) => step(6 + i, 'https://a/feed', 'end', [{ name: 'scroll', arguments: '{"direction":"down"}' }]))];
    expect(detectTrouble(atEnd, { url: 'https://a/feed', hash: 'end' }, limits).stop).toMatch(/repeated 5 times/);
  });

  it('nudges after every 8 scrolls in a row with no other action, and never stops for it', () => {
    const scrolls = (n: number): StepRecord[] => Array.from({ length: n }, (_, i) => step(i, 'https://a/feed', `h${i}`, [{ name: 'scroll', arguments: '{"direction":"down"}' }]));
    const nudge = (n: number): string[] => detectTrouble(scrolls(n), { url: 'https://a/feed', hash: `h${n}` }, limits).notices.filter((m) => m.includes('scrolled'));
    expect(nudge(7)).toEqual([]);
    expect(nudge(8)[0]).toMatch(/^You have scrolled 8 times in a row\. If what you are looking for has not appeared, use find/);
    expect(nudge(9)).toEqual([]);
    expect(nudge(16)[0]).toMatch(/scrolled 16 times/);
    // Another action in between starts the count again.
    const mixed = [...scrolls(7), step(7, 'https://a/feed', 'hc', [{ name: 'click', arguments: '{"ref":3}' }]), ...scrolls(8).map((s, i) => ({ ...s, index: 8 + i }))];
    expect(detectTrouble(mixed.slice(0, 15), { url: 'https://a/feed', hash: 'hz' }, limits).notices.filter((m) => m.includes('scrolled'))).toEqual([]);
    expect(detectTrouble(mixed, { url: 'https://a/feed', hash: 'hz' }, limits).notices.filter((m) => m.includes('scrolled'))).toHaveLength(1);
  });

  it('lets the model try again when a page cannot be reached, and ends the task only when it stays unreachable', () => {
    const down = (n: number): StepRecord[] => Array.from({ length: n }, (_, i) => step(i, 'https://down.example/', 'err', [{ name: 'navigate', arguments: `{"url":"https://down.example/?try=${i}"}` }], 'unreachable'));
    const current = { url: 'https://down.example/', hash: 'err', status: 'unreachable' as const };
    expect(detectTrouble([], current, limits)).toEqual({ notices: [], stop: null });
    expect(detectTrouble(down(1), current, limits).notices[0]).toMatch(/has still not loaded \(2 times\)\. If reloading or waiting does not help, try another address/);
    expect(detectTrouble(down(3), current, limits).stop).toBe("Stopped: https://down.example/ could not be reached, 4 times in a row, after the model's own attempts to get there.");
    // A page that loads in between starts the count again.
    const recovered = [...down(2), step(2, 'https://up.example/', 'ok', [{ name: 'navigate', arguments: '{"url":"https://down.example/"}' }])];
    expect(detectTrouble(recovered, current, limits).stop).toBeNull();
  });

  it('warns about the same error again and again, even from different actions', () => {
    const failing = Array.from({ length: 3 }, (_, i) => step(i, 'https://a/1', `h${i}`, [{ arguments: `{"ref":${i}}`, result: { ok: false, content: 'Element is covered by a dialog.' } }]));
    const verdict = detectTrouble(failing, { url: 'https://a/1', hash: 'hz' }, limits);
    expect(verdict.notices).toEqual(['The same error happened 3 times in a row: "Element is covered by a dialog.". Do not repeat the failing call; change approach.']);
  });

  it('does not count update_plan or ask_user as repeated actions', () => {
    const planning = Array.from({ length: 6 }, (_, i) => step(i, 'https://a/1', `h${i}`, [{ name: 'update_plan', arguments: '{}' }]));
    expect(detectTrouble(planning, { url: 'https://a/1', hash: 'hq' }, limits).stop).toBeNull();
  });

  it('sees A-B-A-B between two pages, ignoring fragments', () => {
    const urls = ['https://a/x', 'https://a/y#top', 'https://a/x'];
    const steps = urls.map((u, i) => step(i, u, `h${i}`, [{ arguments: `{"ref":${i}}` }]));
    expect(detectTrouble(steps, { url: 'https://a/y', hash: 'h9' }, limits).notices[0]).toMatch(/^You are going back and forth between https:\/\/a\/x and https:\/\/a\/y/);
  });
});

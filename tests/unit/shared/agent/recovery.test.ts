import { describe, expect, it } from 'vitest';
import type { CallRecord, StepRecord } from '../../../../shared/agent/agent-state';
import { DEFAULT_RECOVERY_LIMITS, detectTrouble } from '../../../../shared/agent/recovery';

function step(index: number, url: string, hash: string, calls: Partial<CallRecord>[]): StepRecord {
  return {
    index,
    startedAt: index,
    observation: { url, title: 't', hash, chars: 1, text: null, elements: [] },
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

  it('warns about the same action repeated on the same page, and stops past the limit', () => {
    const same = (n: number): StepRecord[] => Array.from({ length: n }, (_, i) => step(i, 'https://a/1', `h${i}`, [{ arguments: '{"ref": 1}' }]));
    expect(detectTrouble(same(3), { url: 'https://a/1', hash: 'hx' }, limits).notices[0]).toMatch(/^You have done the same action 3 times in a row \(click \{"ref":1\} on https:\/\/a\/1\)/);
    expect(detectTrouble(same(5), { url: 'https://a/1', hash: 'hx' }, limits).stop).toMatch(/^Stopped: the same action was repeated 5 times/);
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

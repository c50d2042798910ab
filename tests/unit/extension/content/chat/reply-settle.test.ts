import { describe, expect, it } from 'vitest';
import { ReplySettle, type SettleObservation } from '../../../../../extension/content/chat/reply-settle';

const them = (text: string) => ({ author: 'them' as const, text });
const us = (text: string) => ({ author: 'us' as const, text });
const seen = (messages: SettleObservation['messages'], typing = false, extras = ''): SettleObservation => ({ messages, typing, extras });

describe('ReplySettle with a fake clock', () => {
  const baseline = { count: 1, lastText: 'Refund please' };
  const start = () => new ReplySettle({ baseline, quietMs: 500, timeoutMs: 10_000, startedAt: 0 });

  it('waits through bursts and typing, and settles only once the reply has been still for the quiet time', () => {
    const settle = start();
    expect(settle.observe(0, seen([us('Refund please')], true)).status).toBe('waiting');
    expect(settle.observe(300, seen([us('Refund please'), them('Sorry')], false)).status).toBe('waiting');
    // Typing again after the first burst: not done, however long it has been quiet.
    expect(settle.observe(900, seen([us('Refund please'), them('Sorry')], true)).status).toBe('waiting');
    expect(settle.observe(1000, seen([us('Refund please'), them('Sorry'), them('Order number?')], false)).status).toBe('waiting');
    expect(settle.observe(1499, seen([us('Refund please'), them('Sorry'), them('Order number?')], false)).status).toBe('waiting');
    expect(settle.observe(1500, seen([us('Refund please'), them('Sorry'), them('Order number?')], false))).toEqual({
      status: 'replied',
      typingSeen: true,
      replies: 2,
    });
  });

  it('restarts the quiet time while a streamed message grows', () => {
    const settle = start();
    settle.observe(0, seen([us('Refund please'), them('I can')]));
    expect(settle.observe(400, seen([us('Refund please'), them('I can help')])).status).toBe('waiting');
    expect(settle.observe(800, seen([us('Refund please'), them('I can help')])).status).toBe('waiting');
    expect(settle.observe(900, seen([us('Refund please'), them('I can help')])).status).toBe('replied');
  });

  it('counts new quick replies or forms as part of the reply', () => {
    const settle = start();
    settle.observe(0, seen([us('Refund please'), them('Pick one')], false, 'choices:0'));
    expect(settle.observe(450, seen([us('Refund please'), them('Pick one')], false, 'choices:3')).status).toBe('waiting');
    expect(settle.observe(950, seen([us('Refund please'), them('Pick one')], false, 'choices:3')).status).toBe('replied');
  });

  it('does not take our own echoed message for a reply, and times out when nobody answers', () => {
    const settle = start();
    expect(settle.observe(5000, seen([us('Refund please'), us('Hello?')])).status).toBe('waiting');
    expect(settle.observe(10_000, seen([us('Refund please'), us('Hello?')]))).toEqual({ status: 'timeout', typingSeen: false, replies: 0 });
  });

  it('reports that support was typing when it times out mid-reply', () => {
    const settle = start();
    settle.observe(0, seen([us('Refund please')], true));
    expect(settle.observe(10_000, seen([us('Refund please')], true))).toEqual({ status: 'timeout', typingSeen: true, replies: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { createHostPassthroughHandlers, isPassthroughEvent } from '../../../../../extension/background/host/host-passthrough';
import { UiChannel } from '../../../../../shared/protocol';
import { AppError } from '../../../../../shared/errors';

describe('host passthrough', () => {
  it('forwards each loop, desktop and shell method to the host with its params, and returns the host reply', async () => {
    const calls: [string, unknown][] = [];
    const handlers = createHostPassthroughHandlers({
      call: ((method: string, params: unknown) => {
        calls.push([method, params]);
        return Promise.resolve({ forwarded: method });
      }) as never,
    });
    expect(Object.keys(handlers).sort()).toEqual([
      'desktop.answer',
      'desktop.run',
      'desktop.status',
      'desktop.stop',
      'loop.describe',
      'loop.describeCancel',
      'loop.start',
      'loop.status',
      'loop.stop',
      'shell.answer',
      'shell.kill',
      'shell.output',
      'shell.resume',
      'shell.run',
      'shell.search',
      'shell.sessions',
      'shell.stop',
    ]);
    expect(await handlers['loop.stop']({ loopId: 'l1' })).toEqual({ forwarded: 'loop.stop' });
    expect(await handlers['desktop.answer']({ runId: 'r1', id: 'a1', approved: true })).toEqual({ forwarded: 'desktop.answer' });
    expect(calls).toEqual([
      ['loop.stop', { loopId: 'l1' }],
      ['desktop.answer', { runId: 'r1', id: 'a1', approved: true }],
    ]);
  });

  it('passes on the host error as it is (for example: host not installed)', async () => {
    const handlers = createHostPassthroughHandlers({
      call: () => Promise.reject(new AppError('host_not_installed', 'The host is not installed: run npm run host:install')),
    });
    await expect(handlers['loop.status']({})).rejects.toMatchObject({ code: 'host_not_installed' });
  });

  it('passes loop and desktop events on, and nothing else', () => {
    expect(isPassthroughEvent('loop.event')).toBe(true);
    expect(isPassthroughEvent('desktop.task')).toBe(true);
    expect(isPassthroughEvent('desktop.stopped')).toBe(true);
    expect(isPassthroughEvent('notice')).toBe(false);
    expect(isPassthroughEvent('toString')).toBe(false);
  });

  it('keeps low-level desktop input off the ui channel', () => {
    expect(Object.keys(UiChannel.methods)).not.toContain('desktop.act');
    expect(Object.keys(UiChannel.methods)).not.toContain('desktop.screenshot');
  });
});

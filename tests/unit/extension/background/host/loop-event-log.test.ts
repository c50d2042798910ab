import { describe, expect, it } from 'vitest';
import { LoopEventLog } from '../../../../../extension/background/host/loop-event-log';
import type { LoopEvent } from '../../../../../shared/protocol/loop-protocol';
import { memoryStore } from '../support/memory-store';

let at = 0;
const progress = (loopId: string, action: string): LoopEvent => ({ type: 'fixer.progress', loopId, at: (at += 1), iteration: 1, action });
const check = (loopId: string, iteration: number): LoopEvent => ({ type: 'check.result', loopId, at: (at += 1), iteration, passed: false, format: 'tap', failures: [] });

describe('loop event log in session storage', () => {
  it('keeps every event of a loop, also when many arrive at once, and a new worker reads them back', async () => {
    const store = memoryStore();
    const log = new LoopEventLog(store);
    const events = [check('a', 1), progress('a', 'Read x'), check('b', 1), progress('a', 'Edit x'), check('a', 2)];
    await Promise.all(events.map((event) => log.append(event)));
    expect(await log.events('a')).toEqual([events[0], events[1], events[3], events[4]]);
    expect(await log.events('b')).toEqual([events[2]]);
    expect(await log.events('none')).toEqual([]);
    // The service worker restarted: a fresh log over the same storage.
    expect(await new LoopEventLog(store).events('a')).toHaveLength(4);
  });

  it('stays bounded: progress lines go first, then the oldest events; the loop heard from least recently goes', async () => {
    const log = new LoopEventLog(memoryStore(), { perLoop: 4, loops: 2 });
    const first = check('a', 1);
    await log.append(first);
    for (let i = 0; i < 5; i += 1) await log.append(progress('a', `step ${i}`));
    const kept = await log.events('a');
    expect(kept).toHaveLength(4);
    expect(kept[0]).toEqual(first);
    expect(kept.map((event) => (event.type === 'fixer.progress' ? event.action : event.type))).toEqual(['check.result', 'step 2', 'step 3', 'step 4']);
    for (let i = 2; i < 8; i += 1) await log.append(check('a', i));
    expect((await log.events('a')).map((event) => event.iteration)).toEqual([4, 5, 6, 7]);

    await log.append(check('b', 1));
    await log.append(check('a', 8));
    await log.append(check('c', 1));
    expect(await log.events('b')).toEqual([]);
    expect(await log.events('a')).toHaveLength(4);
    expect(await log.events('c')).toHaveLength(1);
  });
});

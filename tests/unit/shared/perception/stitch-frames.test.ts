import { describe, expect, it } from 'vitest';
import type { FrameSnapshot } from '../../../../shared/perception/frame-snapshot';
import { stitchFrames, unplacedKeys } from '../../../../shared/perception/stitch-frames';

function frame(items: FrameSnapshot['items'], extra: Partial<FrameSnapshot> = {}): FrameSnapshot {
  return { token: 't', url: 'https://a.test/', title: '', inlined: false, items, above: 0, below: 0, dialogs: [], ...extra };
}

const el = (ref: number, name: string) => ({ k: 'el' as const, ref, role: 'button', name, ann: [] });

describe('stitchFrames', () => {
  it('puts a cross-origin frame where its parent showed its key, and numbers stay with their frame', () => {
    const stitched = stitchFrames([
      { frameId: 0, snapshot: frame([el(1, 'Top'), { k: 'frame', key: 'k1' }, el(2, 'After')]) },
      { frameId: 5, snapshot: frame([el(1, 'Inside')], { frameKey: 'k1', token: 'child', dialogs: ['Chat'] }) },
    ]);
    expect(stitched.items.map((i) => [i.frameId, i.item.k === 'el' ? i.item.name : ''])).toEqual([
      [0, 'Top'],
      [5, 'Inside'],
      [0, 'After'],
    ]);
    expect(stitched.items[1]?.token).toBe('child');
    expect(stitched.dialogs).toEqual(['Chat']);
  });

  it('leaves out frames shown inline by their parent and counts placeholders no frame answered for', () => {
    const stitched = stitchFrames([
      { frameId: 0, snapshot: frame([{ k: 'frame', key: 'gone' }, { k: 'frame', key: 'inline' }]) },
      { frameId: 3, snapshot: frame([], { frameKey: 'inline', inlined: true }) },
      { frameId: 4, snapshot: frame([el(1, 'Orphan')], { frameKey: 'nobody-placed-me' }) },
    ]);
    expect(stitched.items).toEqual([]);
    expect(stitched.missing).toBe(2);
  });

  it('does not loop when frames name each other', () => {
    const stitched = stitchFrames([
      { frameId: 0, snapshot: frame([{ k: 'frame', key: 'a' }]) },
      { frameId: 1, snapshot: frame([el(1, 'A'), { k: 'frame', key: 'a' }], { frameKey: 'a' }) },
    ]);
    expect(stitched.items).toHaveLength(1);
  });

  it('lists the keys shown that no frame has reported yet', () => {
    expect(unplacedKeys([{ frameId: 0, snapshot: frame([{ k: 'frame', key: 'x' }, { k: 'frame', key: 'y' }]) }, { frameId: 2, snapshot: frame([], { frameKey: 'y' }) }])).toEqual(['x']);
  });
});

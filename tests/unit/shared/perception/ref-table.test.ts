import { describe, expect, it } from 'vitest';
import { RefTable } from '../../../../shared/perception/ref-table';

const entry = { frameId: 0, token: 'doc-a', url: 'https://a.test/', local: 3, role: 'button', name: 'Save' };

describe('RefTable', () => {
  it('gives an element the same number every time it is seen', () => {
    const table = new RefTable();
    const first = table.numberFor(entry);
    expect(table.numberFor({ ...entry, name: 'Saved' })).toBe(first);
    expect(table.lookup(first)?.name).toBe('Saved');
  });

  it('never gives a number of one frame or document to another', () => {
    const table = new RefTable();
    const top = table.numberFor(entry);
    const child = table.numberFor({ ...entry, frameId: 7 });
    const reloaded = table.numberFor({ ...entry, token: 'doc-b' });
    expect(new Set([top, child, reloaded]).size).toBe(3);
    expect(table.lookup(child)?.frameId).toBe(7);
    expect(table.lastRef).toBe(3);
    expect(table.lookup(99)).toBeUndefined();
  });

  it('tells the number already given to a frame\'s element without giving one', () => {
    const table = new RefTable();
    const n = table.numberFor(entry);
    expect(table.numberOf(0, 'doc-a', 3)).toBe(n);
    expect(table.numberOf(0, 'doc-a', 4)).toBeUndefined();
    expect(table.numberOf(7, 'doc-a', 3)).toBeUndefined();
    expect(table.lastRef).toBe(n);
  });
});

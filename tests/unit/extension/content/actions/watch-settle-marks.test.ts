import { describe, expect, it } from 'vitest';
import { isDeputyMark } from '../../../../../extension/content/actions/watch-settle';

/** A mutation record as the observer delivers it, with nodes that have only a name (all the filter reads). */
function record(type: MutationRecordType, target: string, options: { attribute?: string; added?: string[]; removed?: string[] } = {}) {
  const nodes = (names: string[] = []) => names.map((nodeName) => ({ nodeName })) as unknown as NodeList;
  return { type, target: { nodeName: target } as Node, attributeName: options.attribute ?? null, addedNodes: nodes(options.added), removedNodes: nodes(options.removed) };
}

describe('isDeputyMark', () => {
  it("leaves out Deputy's own tab marker: drawn again after a load, hidden and shown for a screenshot, removed", () => {
    expect(isDeputyMark(record('childList', 'HTML', { added: ['DEPUTY-TAB-MARKER'] }))).toBe(true);
    expect(isDeputyMark(record('childList', 'HTML', { removed: ['DEPUTY-TAB-MARKER'] }))).toBe(true);
    expect(isDeputyMark(record('attributes', 'DEPUTY-TAB-MARKER', { attribute: 'style' }))).toBe(true);
    expect(isDeputyMark(record('attributes', 'BUTTON', { attribute: 'data-deputy-highlight' }))).toBe(true);
  });

  it("counts every change of the page's own, also one made in the same record as the marker's", () => {
    expect(isDeputyMark(record('childList', 'HTML', { added: ['DEPUTY-TAB-MARKER', 'DIV'] }))).toBe(false);
    expect(isDeputyMark(record('childList', 'UL', { added: ['LI'] }))).toBe(false);
    expect(isDeputyMark(record('attributes', 'BUTTON', { attribute: 'aria-expanded' }))).toBe(false);
    expect(isDeputyMark(record('attributes', 'BUTTON', { attribute: 'style' }))).toBe(false);
    expect(isDeputyMark(record('characterData', '#text'))).toBe(false);
    expect(isDeputyMark(record('childList', 'DIV'))).toBe(false);
  });
});

import { collectSnapshot, SNAPSHOT_BUDGET_MS } from '../../extension/content/perception/collect-snapshot';
import { openDomAccess } from '../../extension/content/perception/dom-access';
import { RefRegistry } from '../../extension/content/perception/ref-registry';
import type { SnapshotMode } from '../../shared/perception/frame-snapshot';
import { renderSnapshot, type ShownItem } from '../../shared/perception/render-snapshot';
import { coverageProbe } from './coverage-probe';

// The benchmark's in-page entry: the extension's own snapshot code (collect in the page, render as the background
// does), bundled by esbuild and injected into each page. Local numbers stand in for tab-wide ones: a page with no
// cross-origin frames gets the same text either way.
const registry = new RefRegistry();
let numbered: Element[] = [];

function snapshot(mode: SnapshotMode): string {
  // The extension's own time budget: on a page too large to read in it, the snapshot stops and says what it left out.
  const { snapshot: shot, elements } = collectSnapshot(document, registry, openDomAccess, { mode, deadline: Date.now() + SNAPSHOT_BUDGET_MS });
  numbered = elements;
  const items = shot.items.flatMap((item): ShownItem[] => {
    if (item.k === 'frame') return [];
    if (item.k === 'ctx') return [item];
    return [{ k: 'el', n: item.ref, fresh: false, role: item.role, name: item.name, ann: item.ann }];
  });
  return renderSnapshot({ header: [`Page: ${shot.title} — ${shot.url}`], items, above: shot.above, below: shot.below, ...(shot.omitted ? { omitted: shot.omitted } : {}) }).text;
}

Object.assign(globalThis, {
  deputyBench: { snapshot, numbered: () => numbered, coverage: coverageProbe },
});

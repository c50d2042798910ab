import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { needShared } from '../support/shared-dir';
import { lineOf, usePerception } from './support/perception-harness';

// Every numbered element must be actionable: on real saved pages, each one is clicked (text fields are focused) by
// its number, and a listener in the page checks that the event reached the element the number names.
const PAGES = ['todomvc-web-components', 'apg-combobox-datepicker', 'adminlte-forms', 'otto-shop-blog', 'github-repo', 'breitbart'];

interface Probe {
  hits: Array<{ type: string; reached: boolean }>;
}

/**
 * Installs capture listeners in every same-origin document of the page. Each click or focus is recorded with whether
 * its path passed through the highlighted element, then stopped, so links do not navigate and the page stays put.
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const top = window as unknown as { deputyProbe: Probe };
    top.deputyProbe = { hits: [] };
    const docs: Document[] = [document];
    for (let i = 0; i < docs.length; i += 1) {
      for (const frame of Array.from((docs[i] as Document).querySelectorAll('iframe'))) {
        try {
          if (frame.contentDocument) docs.push(frame.contentDocument);
        } catch {
          // Cross-origin frames are out of this probe's reach.
        }
      }
    }
    for (const doc of docs) {
      for (const type of ['click', 'focus']) {
        doc.defaultView?.addEventListener(
          type,
          (event) => {
            // A click on a control's label counts: the browser forwards it to the control.
            const reached = event
              .composedPath()
              .some(
                (node) =>
                  node instanceof Element &&
                  (node.hasAttribute('data-deputy-highlight') || (node instanceof HTMLLabelElement && node.control?.hasAttribute('data-deputy-highlight') === true)),
              );
            top.deputyProbe.hits.push({ type, reached });
            if (type === 'click') {
              event.preventDefault();
              event.stopImmediatePropagation();
            }
          },
          true,
        );
      }
    }
  });
}

async function takeHits(page: Page): Promise<Probe['hits']> {
  return page.evaluate(() => {
    const probe = (window as unknown as { deputyProbe: Probe }).deputyProbe;
    return probe.hits.splice(0);
  });
}

const corpus = needShared('corpus/pages');

describe.skipIf(corpus.missing !== null)(corpus.title('every numbered element on real pages is actionable'), () => {
  const h = usePerception();

  it.each(PAGES)('%s: a click or focus by number reaches that element', async (name) => {
    const { page, tabId } = await h.open(`/corpus/${name}/index.html`);
    await installProbe(page);
    const shot = await h.snapshot(tabId, 'page');
    expect(shot.elements.length).toBeGreaterThan(10);
    const failures: string[] = [];
    let reached = 0;
    for (const el of shot.elements) {
      const line = lineOf(shot, el.ref);
      const covered = line.endsWith(' covered') || line.includes(' covered ');
      const field = el.role === 'textbox' || el.role === 'searchbox' || el.role === 'combobox';
      expect(await h.highlight(tabId, el.ref), line).toBe(true);
      const outcome = await h.act(tabId, { kind: field || covered ? 'focus' : 'click', ref: el.ref }, 0);
      const hits = await takeHits(page);
      if (hits.some((hit) => hit.reached)) {
        reached += 1;
        continue;
      }
      // Only elements in the view are hit-tested for `covered` when the snapshot is taken; one found covered when
      // scrolled to is refused with the reason, and is still reached by focus (then Enter, as a keyboard user does).
      if (!outcome.ok && outcome.message.includes('is covered by')) {
        await h.act(tabId, { kind: 'focus', ref: el.ref }, 0);
        if ((await takeHits(page)).some((hit) => hit.type === 'focus' && hit.reached)) {
          reached += 1;
          continue;
        }
      }
      // A covered control that takes no focus cannot be reached by a user either; the snapshot said so.
      if (covered && outcome.ok) continue;
      // A disabled control is refused with a reason, as the snapshot's "disabled" announced.
      if (line.includes(' disabled') && !outcome.ok && outcome.message.includes('is disabled')) continue;
      failures.push(`${line} -> ${outcome.message}; events: ${JSON.stringify(hits)}`);
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(reached).toBeGreaterThan(shot.elements.length * 0.5);
  });
});

import { collectSnapshot, SNAPSHOT_BUDGET_MS } from '../../extension/content/perception/collect-snapshot';
import { openDomAccess } from '../../extension/content/perception/dom-access';
import { RefRegistry } from '../../extension/content/perception/ref-registry';

// The accessibility comparison's in-page entry: the extension's own snapshot code, bundled by esbuild and injected
// into the page. Each numbered element is tagged with its index, so the comparison can find the same element in
// Chromium's accessibility tree through the DOM domain.

export const AX_MARK = 'data-deputy-ax';

export interface AxDeputyItem {
  index: number;
  role: string;
  name: string;
  ann: string[];
  /** The element's own text (its text content and image alternatives), to tell a name read from it from an invented one. */
  ownText: string;
  /** The element's id and classes, to tell a name made up from them. */
  hints: string[];
}

function ownText(el: Element): string {
  const alts = Array.from(el.querySelectorAll('img[alt]'), (img) => img.getAttribute('alt') ?? '');
  const attrs = ['value', 'placeholder', 'title', 'aria-label', 'alt'].map((a) => el.getAttribute(a) ?? '');
  return `${el.textContent ?? ''} ${alts.join(' ')} ${attrs.join(' ')}`.replace(/\s+/g, ' ').trim();
}

function numberedControls(): AxDeputyItem[] {
  const { snapshot, elements } = collectSnapshot(document, new RefRegistry(), openDomAccess, { mode: 'page', deadline: Date.now() + SNAPSHOT_BUDGET_MS * 5 });
  const items: AxDeputyItem[] = [];
  let index = 0;
  for (const item of snapshot.items) {
    if (item.k !== 'el') continue;
    const el = elements[index];
    if (el) {
      el.setAttribute(AX_MARK, String(index));
      items.push({ index, role: item.role, name: item.name, ann: item.ann, ownText: ownText(el), hints: [el.id, ...Array.from(el.classList)].filter(Boolean) });
    }
    index += 1;
  }
  return items;
}

Object.assign(globalThis, { deputyAx: { numberedControls } });

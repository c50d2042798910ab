import { collapse } from './accessible-name';

/** The first `max` characters of an element's text, without reading the whole subtree of a large container. */
function boundedText(el: Element, max: number): string {
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node && text.length < max; node = walker.nextNode()) text += ` ${node.nodeValue ?? ''}`;
  return collapse(text).slice(0, max);
}

/**
 * The text of the row an element sits in: its nearest ancestor (a few levels up at most) with text beyond the
 * element's own name, e.g. the list item a delete button belongs to. It tells a re-rendered copy apart from its twins.
 */
export function rowText(el: Element, name: string): string {
  let node = el.parentElement;
  for (let depth = 0; node && depth < 4; depth += 1, node = node.parentElement) {
    const text = boundedText(node, 80);
    if (text && text !== name) return text;
  }
  return '';
}

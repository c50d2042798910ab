import { AppError } from '../../../shared/errors';
import type { InputDriver } from './input-types';
import { isTextField } from './type-text';

/** Whitespace runs count as one space, as a person reads the text; the selection read back is compared the same way. */
const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

interface Hit {
  range: Range;
  /** The text as the page has it (with its own case and line breaks). */
  found: string;
}

/** The text nodes a person can see under `root`, in document order. */
function visibleTextNodes(root: Node): Text[] {
  const doc = root.ownerDocument ?? (root as Document);
  const out: Text[] = [];
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      const parent = node.parentElement;
      if (!parent || !node.nodeValue) return NodeFilter.FILTER_REJECT;
      if (parent.closest('script, style, noscript, template')) return NodeFilter.FILTER_REJECT;
      return parent.getClientRects().length > 0 ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
    },
  });
  for (let node = walker.nextNode(); node && out.length < 50_000; node = walker.nextNode()) out.push(node as Text);
  return out;
}

/**
 * The first occurrence of `wanted` in the visible text under `root`, across text nodes, whitespace-insensitive (case
 * too when the exact case is not there). A run of whitespace in either counts as one space.
 */
export function findTextRange(root: Node, wanted: string): Hit | null {
  const key = squash(wanted);
  if (!key) return null;
  const nodes = visibleTextNodes(root);
  // The squashed text of all nodes, with where each of its characters is in the page.
  let flat = '';
  const at: { node: Text; offset: number }[] = [];
  for (const node of nodes) {
    const value = node.nodeValue ?? '';
    for (let i = 0; i < value.length; i += 1) {
      const ch = value[i] ?? '';
      if (/\s/.test(ch)) {
        if (flat.endsWith(' ') || flat === '') continue;
        flat += ' ';
      } else flat += ch;
      at.push({ node, offset: i });
    }
    // Text of separate blocks reads as separate words.
    if (!flat.endsWith(' ') && flat !== '') {
      flat += ' ';
      at.push({ node, offset: value.length });
    }
  }
  let start = flat.indexOf(key);
  if (start < 0) start = flat.toLowerCase().indexOf(key.toLowerCase());
  if (start < 0) return null;
  const first = at[start];
  const last = at[start + key.length - 1];
  if (!first || !last) return null;
  const range = (root.ownerDocument ?? (root as Document)).createRange();
  range.setStart(first.node, first.offset);
  range.setEnd(last.node, last.offset + 1);
  return { range, found: range.toString() };
}

/** What the page's selection holds now: a text field's selected part, or the document's selection. */
function selectedText(doc: Document): string {
  const active = doc.activeElement;
  if (active && isTextField(active) && 'selectionStart' in active) {
    const field = active;
    if (field.selectionStart !== null && field.selectionEnd !== null && field.selectionEnd > field.selectionStart) {
      return field.value.slice(field.selectionStart, field.selectionEnd);
    }
  }
  return doc.getSelection()?.toString() ?? '';
}

/**
 * Selects text as a person does with the mouse: presses before its first character and drags to after its last
 * (trusted input), so the page sees the same events; where the drag selects something else (or input is synthetic),
 * the selection is set by script. The selection is read back: the step fails with what is selected when it is not the
 * text asked for. In a text field the field's own selection is set.
 */
export async function selectText(doc: Document, el: Element | null, text: string, driver: InputDriver): Promise<{ message: string; evidence: string[] }> {
  if (el && isTextField(el) && 'setSelectionRange' in el) {
    const field = el;
    const from = field.value.indexOf(text) >= 0 ? field.value.indexOf(text) : field.value.toLowerCase().indexOf(text.toLowerCase());
    if (from < 0) throw new AppError('not_found', `[@] does not hold ${JSON.stringify(text)}`);
    field.focus({ preventScroll: false });
    field.setSelectionRange(from, from + text.length);
    field.dispatchEvent(new Event('select', { bubbles: true }));
    return { message: `selected ${JSON.stringify(field.value.slice(from, from + text.length))} in`, evidence: [] };
  }
  const root = el ?? doc.body ?? doc.documentElement;
  const hit = findTextRange(root, text);
  if (!hit) throw new AppError('not_found', `${el ? '[@] shows' : 'the page shows'} no ${JSON.stringify(text)}: select text as it is written on the page`);
  const startNode = hit.range.startContainer.parentElement;
  startNode?.scrollIntoView({ block: 'center', behavior: 'instant' });
  const evidence: string[] = [];
  const rects = Array.from(hit.range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  const firstBox = rects[0];
  const lastBox = rects.at(-1);
  let how = 'by script';
  if (driver.trusted() && firstBox && lastBox && startNode) {
    const endNode = hit.range.endContainer.parentElement ?? startNode;
    // Just inside the first character's left half and the last character's right half: the caret goes before the
    // first and after the last.
    await driver.drag({ el: startNode, at: { x: firstBox.left + 1, y: firstBox.top + firstBox.height / 2 } }, { el: endNode, at: { x: lastBox.right - 1, y: lastBox.top + lastBox.height / 2 } });
    how = 'with the mouse';
  }
  if (squash(selectedText(doc)) !== squash(hit.found)) {
    if (how !== 'by script') evidence.push(`the drag selected ${JSON.stringify(squash(selectedText(doc)).slice(0, 80))}: set by script instead`);
    const selection = doc.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(hit.range);
    how = 'by script';
  }
  const now = squash(selectedText(doc));
  if (now !== squash(hit.found)) throw new AppError('unavailable', `the page did not keep the selection: ${JSON.stringify(now.slice(0, 80))} is selected`);
  return { message: `selected ${JSON.stringify(now.length > 80 ? `${now.slice(0, 77)}...` : now)} ${how}${el ? ' in' : ''}`, evidence };
}

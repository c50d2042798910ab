import type { FrameSnapshot, SnapshotItem, SnapshotMode } from '../../../shared/perception/frame-snapshot';
import { accessibleName, clip, collapse, landmarkName, nameHint } from './accessible-name';
import { deepActiveElement, type DomAccess } from './dom-access';
import { annotations } from './element-states';
import { headingLevel, interactiveKind, landmarkRole } from './element-role';
import { isCovered } from './hit-test';
import type { RefRegistry } from './ref-registry';
import { rowText } from './row-text';

export interface CollectOptions {
  mode: SnapshotMode;
  /** Pixels beyond the viewport still shown in viewport mode. */
  margin?: number;
  /** Longest run of plain text kept as one context line. */
  maxText?: number;
}

/** Elements whose content is never shown: not rendered, or described by the element itself. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'OPTION', 'DATALIST']);
/** Elements whose subtree belongs to the element: a control's parts, or an icon's drawing. */
const LEAF = new Set(['SELECT', 'TEXTAREA', 'INPUT', 'svg', 'IMG', 'VIDEO', 'AUDIO', 'CANVAS', 'OBJECT', 'EMBED']);

interface Pending {
  el: Element;
  role: string;
  name: string;
  ann: string[];
  weakByCursor: boolean;
  dropped: boolean;
}

type Entry = Pending | { text: string; prio: 1 | 2 } | { key: string };

interface Scope {
  win: Window;
  /** Offset of this document's viewport inside the top frame's viewport. */
  dx: number;
  dy: number;
  /** The nearest numbered ancestor, if any. */
  owner: Pending | null;
  parentPointer: boolean;
  editable: boolean;
  /** False inside visibility: hidden and inside labels of controls, whose text is shown as the control's name. */
  showText: boolean;
  inLabel: boolean;
}

export interface Collected {
  snapshot: Omit<FrameSnapshot, 'token' | 'inlined'>;
  /** The numbered elements shown, in order, for callers that act on them or measure them. */
  elements: Element[];
}

/**
 * Reads the page as a flat list in document order: numbered controls, and context lines for headings, landmarks,
 * dialogs and short text. Hidden, inert and aria-hidden content is left out; open (and, through `access`, closed)
 * shadow roots and same-origin iframes are walked inline; cross-origin iframes leave a placeholder for the background.
 * It is a function of the document alone, so it runs the same in the extension, in the benchmark and in tests.
 */
export function collectSnapshot(doc: Document, registry: RefRegistry, access: DomAccess, options: CollectOptions): Collected {
  const win = doc.defaultView;
  if (!win) throw new Error('The document has no window');
  const viewport = options.mode === 'viewport';
  const margin = options.margin ?? 200;
  const maxText = options.maxText ?? 80;
  const vh = win.innerHeight;
  const origin = win.location.origin;
  const path = win.location.pathname;
  const focused = deepActiveElement(doc, access);
  const entries: Entry[] = [];
  const dialogs: string[] = [];
  let above = 0;
  let below = 0;
  let pendingText = '';
  let pendingTextEl: Element | null = null;

  const inView = (rect: DOMRect, scope: Scope): number => {
    const top = rect.top + scope.dy;
    const bottom = rect.bottom + scope.dy;
    if (bottom < -margin) return -1;
    if (top > vh + margin) return 1;
    return 0;
  };

  const flushText = (scope: Scope): void => {
    const text = collapse(pendingText);
    const el = pendingTextEl;
    pendingText = '';
    pendingTextEl = null;
    if (!text || !el) return;
    if (viewport && inView(el.getBoundingClientRect(), scope) !== 0) return;
    const last = entries[entries.length - 1];
    if (last && 'text' in last && last.prio === 1 && last.text.length < maxText) {
      last.text = clip(`${last.text} ${text}`, maxText);
    } else {
      entries.push({ text: clip(text, maxText), prio: 1 });
    }
  };

  const visitChildren = (nodes: NodeListOf<ChildNode> | Node[], parent: Element, scope: Scope): void => {
    for (const node of nodes) {
      if (node.nodeType === 1) {
        visit(node as Element, scope);
      } else if (node.nodeType === 3 && scope.owner === null && scope.showText) {
        const data = node.nodeValue;
        if (data && data.trim()) {
          if (pendingTextEl !== parent && pendingText) flushText(scope);
          pendingText += data;
          pendingTextEl = parent;
        }
      }
    }
  };

  const visit = (el: Element, scope: Scope): void => {
    const tag = el.tagName;
    if (SKIP.has(tag)) return;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    const editableRoot = !scope.editable && (el as HTMLElement).isContentEditable;
    let kind = interactiveKind(el, tag, editableRoot);
    // Inside a numbered element only other controls matter, and each checks its own visibility: reading the style of
    // every span and icon in a link is most of the cost on large pages, so it is skipped.
    if (scope.owner !== null && kind?.kind !== 'strong') {
      if (!LEAF.has(tag)) visitInside(el, tag, scope);
      return;
    }
    const style = scope.win.getComputedStyle(el);
    if (style.display === 'none') return;
    const visible = style.visibility === 'visible';
    const pointer = style.cursor === 'pointer';

    let weakByCursor = false;
    // A label that labels nothing is clickable text in apps (TodoMVC edits an item on a double-click of its label).
    if (!kind && tag === 'LABEL' && scope.owner === null && !(el as HTMLLabelElement).control && el.childElementCount === 0) {
      kind = { kind: 'weak', role: 'label' };
    }
    if (!kind && pointer && !scope.parentPointer && scope.owner === null && tag !== 'LABEL' && tag !== 'HTML' && tag !== 'BODY') {
      kind = { kind: 'weak', role: 'clickable' };
      weakByCursor = true;
    }

    let owner = scope.owner;
    if (kind && visible && (kind.kind === 'strong' || owner === null)) {
      const rect = el.getBoundingClientRect();
      // checkVisibility sees what the computed style of the element alone does not: content skipped by a closed
      // <details> or an ancestor with content-visibility: hidden.
      if (rect.width > 0 && rect.height > 0 && el.checkVisibility()) {
        flushText(scope);
        const where = inView(rect, scope);
        if (where < 0) above += 1;
        else if (where > 0) below += 1;
        if (!viewport || where === 0) {
          const named = accessibleName(el, tag, kind.role);
          const ann = annotations(el, tag, kind.role, named, origin, path);
          const name = named || (ann.length === 0 || !ann[0]?.startsWith('placeholder=') ? nameHint(el) : '');
          if (el === focused) ann.push('focused');
          if (rect.bottom + scope.dy > 0 && rect.top + scope.dy < vh && isCovered(el, rect)) ann.push('covered');
          const item: Pending = { el, role: kind.role, name, ann, weakByCursor, dropped: false };
          if (owner?.weakByCursor && kind.kind === 'strong') owner.dropped = true;
          entries.push(item);
          owner = item;
        } else {
          // Out of view: numbered (so it keeps its number when it scrolls in) but not shown.
          registry.refOf(el);
          owner = { el, role: kind.role, name: '', ann: [], weakByCursor, dropped: true };
        }
      } else {
        // A hidden control's text is its name, not page text: keep it out of the context lines too.
        owner = { el, role: kind.role, name: '', ann: [], weakByCursor, dropped: true };
      }
    }

    if (owner === null && visible) {
      const level = headingLevel(el, tag);
      const landmark = level === 0 ? landmarkRole(el, tag) : null;
      if (level > 0 || landmark) {
        flushText(scope);
        const rect = viewport ? el.getBoundingClientRect() : null;
        if (!rect || inView(rect, scope) === 0) {
          // A heading made of a link is shown by the link's own line; a plain heading is one context line.
          if (level > 0 && !el.querySelector('a[href], button, input, [role=link], [role=button]')) {
            const text = clip(collapse(el.textContent ?? ''), maxText);
            if (text) entries.push({ text: `${'#'.repeat(level)} ${text}`, prio: 2 });
            return;
          }
          if (level > 0) return visitChildren(el.childNodes, el, { ...scope, parentPointer: pointer });
          const name = landmarkName(el);
          if (landmark === 'dialog' || landmark === 'alertdialog') {
            if (tag !== 'DIALOG' || (el as HTMLDialogElement).open) dialogs.push(name || landmark);
          }
          const label = landmark === 'region' || landmark === 'form' || !name ? landmark : `${landmark} ${JSON.stringify(clip(name, 40))}`;
          entries.push({ text: `${label}:`, prio: 2 });
        }
      }
    }

    if (LEAF.has(tag)) return;
    const child: Scope = {
      win: scope.win,
      dx: scope.dx,
      dy: scope.dy,
      owner,
      parentPointer: pointer,
      editable: scope.editable || editableRoot,
      inLabel: scope.inLabel || (tag === 'LABEL' && (el as HTMLLabelElement).control !== null),
      showText: false,
    };
    child.showText = visible && !child.inLabel;
    if (tag === 'IFRAME' || tag === 'FRAME') {
      visitFrame(el, child);
      return;
    }
    const root = access.shadowRootOf(el);
    if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
      const summary = Array.from(el.children).find((c) => c.tagName === 'SUMMARY');
      if (summary) visit(summary, child);
    } else if (root) {
      visitChildren(root.childNodes, el, child);
    } else if (tag === 'SLOT') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      visitChildren(assigned.length > 0 ? assigned : el.childNodes, el, child);
    } else {
      visitChildren(el.childNodes, el, child);
    }
    if (pendingTextEl === el) flushText(scope);
  };

  const visitInside = (el: Element, tag: string, scope: Scope): void => {
    if (tag === 'IFRAME' || tag === 'FRAME') {
      visitFrame(el, scope);
      return;
    }
    const root = access.shadowRootOf(el);
    const children = root ? root.childNodes : tag === 'SLOT' ? (el as HTMLSlotElement).assignedNodes({ flatten: true }) : el.childNodes;
    for (const node of children) if (node.nodeType === 1) visit(node as Element, scope);
  };

  const visitFrame = (frame: Element, scope: Scope): void => {
    let inner: Document | null = null;
    try {
      inner = (frame as HTMLIFrameElement).contentDocument;
    } catch {
      inner = null;
    }
    const rect = frame.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return;
    if (inner?.documentElement && inner.defaultView) {
      const frameScope: Scope = {
        ...scope,
        win: inner.defaultView,
        dx: scope.dx + rect.left + frame.clientLeft,
        dy: scope.dy + rect.top + frame.clientTop,
        parentPointer: false,
      };
      flushText(scope);
      visit(inner.documentElement, frameScope);
      flushText(frameScope);
      return;
    }
    if (viewport && inView(rect, scope) !== 0) return;
    const key = access.frameKeyOf(frame);
    if (key === null) return;
    flushText(scope);
    entries.push({ key });
  };

  const top: Scope = { win, dx: 0, dy: 0, owner: null, parentPointer: false, editable: false, showText: true, inLabel: false };
  if (doc.documentElement) visit(doc.documentElement, top);
  flushText(top);

  return finish(entries, registry, { url: win.location.href, title: doc.title, above, below, dialogs, focused });
}

function finish(
  entries: Entry[],
  registry: RefRegistry,
  meta: { url: string; title: string; above: number; below: number; dialogs: string[]; focused: Element | null },
): Collected {
  const items: SnapshotItem[] = [];
  const elements: Element[] = [];
  const previous = registry.lastRef;
  for (const entry of entries) {
    if ('el' in entry) {
      if (entry.dropped) continue;
      const ref = registry.refOf(entry.el);
      const item: SnapshotItem = { k: 'el', ref, role: entry.role, name: entry.name, ann: entry.ann };
      if (ref > previous) item.fresh = true;
      if (entry.el.tagName === 'INPUT') item.inputType = (entry.el as HTMLInputElement).type;
      const autocomplete = entry.el.getAttribute('autocomplete');
      if (autocomplete) item.autocomplete = autocomplete;
      items.push(item);
      elements.push(entry.el);
    } else if ('text' in entry) {
      items.push({ k: 'ctx', text: entry.text, prio: entry.prio });
    } else {
      items.push({ k: 'frame', key: entry.key });
    }
  }
  rememberAll(items, elements, registry);
  const focusedRef = meta.focused && elements.includes(meta.focused) ? registry.peek(meta.focused) : undefined;
  return {
    snapshot: {
      url: meta.url,
      title: meta.title,
      items,
      above: meta.above,
      below: meta.below,
      dialogs: meta.dialogs,
      ...(focusedRef !== undefined ? { focusedRef } : {}),
    },
    elements,
  };
}

/** Records what each numbered element looked like and where it was, for re-finding it after a re-render. */
function rememberAll(items: SnapshotItem[], elements: Element[], registry: RefRegistry): void {
  let ordinal = 0;
  for (const item of items) {
    if (item.k !== 'el') continue;
    const el = elements[ordinal];
    const context = el ? rowText(el, item.name) : '';
    registry.remember({ ref: item.ref, role: item.role, name: item.name, context, ordinal });
    ordinal += 1;
  }
}

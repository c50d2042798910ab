// Over 400 lines for a reason: one walk of the DOM that decides what each node contributes to the snapshot; its helpers already live in the modules it imports.
import type { SnapshotMode } from '../../../shared/perception/frame-snapshot';
import { accessibleName, clip, collapse, dialogTitle, landmarkName } from './accessible-name';
import { iconHint } from './icon-hint';
import { inlineVisual, swatchColour } from './swatch-hint';
import { deepActiveElement, type DomAccess } from './dom-access';
import { cutText } from './text-cut';
import { annotations } from './element-states';
import { headingLevel, interactiveKind, landmarkRole, structureRole } from './element-role';
import { markCovered, type CoverCandidate, type Layer } from './hit-test';
import { fieldAfterLabel } from './orphan-label';
import { readingOrder, unionBox, type Box } from './reading-order';
import { clipped, innerClip, ownClip, type Clip } from './scroll-clip';
import type { RefRegistry } from './ref-registry';
import { finishSnapshot, type Collected, type Entry, type Pending } from './snapshot-entries';
import { backgroundFor, hidesOwnText, hidesSubtree, visibleText, type Rgb } from './visual-hiding';

export type { Collected } from './snapshot-entries';

export interface CollectOptions {
  mode: SnapshotMode;
  /** Pixels beyond the viewport still shown in viewport mode. */
  margin?: number;
  /** Longest run of plain text kept as one context line. */
  maxText?: number;
  /** A time (Date.now()) after which the walk stops where it is and the snapshot says it is partial. */
  deadline?: number;
}

/**
 * Elements nested deeper than this are left out (and the snapshot says so). The walk recurses per level, and script can
 * nest elements and shadow roots far deeper than the HTML parser's 512 levels; no page a person reads goes this deep.
 */
export const MAX_DEPTH = 400;

/** How long one frame's snapshot walk may take before it stops and reports what it left out. */
export const SNAPSHOT_BUDGET_MS = 600;

/** Elements whose content is never shown: not rendered, or described by the element itself. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'OPTION', 'DATALIST']);
/** Elements whose subtree belongs to the element: a control's parts, or an icon's drawing. */
const LEAF = new Set(['SELECT', 'TEXTAREA', 'INPUT', 'svg', 'IMG', 'VIDEO', 'AUDIO', 'CANVAS', 'OBJECT', 'EMBED']);
/**
 * SVG elements that are never drawn where they stand: definitions, a tooltip's title, descriptions, paint servers and
 * clips (their tag names keep the SVG's own case). Their text is not what a person reads on the drawing.
 */
const SVG_UNDRAWN = new Set(['defs', 'symbol', 'title', 'desc', 'metadata', 'clipPath', 'mask', 'pattern', 'marker', 'linearGradient', 'radialGradient', 'filter', 'style', 'script']);
const NOT_BLANK = /\S/;
const LEADING_SPACE = /^\s/;
const TRAILING_SPACE = /\s$/;

/** Display values that keep an element in the line of text around it. */
function inlineLevel(display: string): boolean {
  return display.startsWith('inline') || display === 'contents';
}

/** Whether a parent's text runs are shown; a function when it is worth asking only once a text run is met. */
type Text = boolean | (() => boolean);

interface Scope {
  win: Window;
  /** Offset of this document's viewport inside the top frame's viewport. */
  dx: number;
  dy: number;
  /** Added to the top of reading boxes: moves a fixed header or footer to the page's top or end. */
  shiftY: number;
  /** The nearest numbered ancestor, if any. */
  owner: Pending | null;
  parentPointer: boolean;
  editable: boolean;
  /** False inside visibility: hidden and inside labels of controls, whose text is shown as the control's name. */
  showText: boolean;
  inLabel: boolean;
  /** Inside an element that hides its content from the eye (transparent, clipped, off the page): no text shown. */
  hideText: boolean;
  /** The colour the content is drawn on, or null where it cannot be told (a background image). */
  bg: Rgb | null;
  /** The part of the frame's viewport the boxes around this point let through (scroll-clip.ts); null for all of it. */
  clip: Clip | null;
}

/** Whether a field takes its name from the label before it: it has no label, ARIA name or title of its own. */
function namesOwnField(field: Element): boolean {
  return !(field as HTMLInputElement).labels?.length && !field.hasAttribute('aria-label') && !field.hasAttribute('aria-labelledby') && !field.getAttribute('title');
}

/**
 * Something made to be moved with the pointer: a native drag source (draggable="true"), or an element whose cursor
 * says it moves (move, grab) or that takes over touch and pointer moves itself (touch-action: none, which drag
 * libraries such as jQuery UI, dnd-kit and map widgets set on what they move).
 */
function draggable(el: Element, style: CSSStyleDeclaration): boolean {
  if (el.getAttribute('draggable') === 'true') return true;
  const cursor = style.cursor;
  // Without text, such an element is a part of a widget (a dialog's resize edges), not a thing to move.
  return (cursor === 'move' || cursor === 'grab' || cursor === 'grabbing' || style.touchAction === 'none') && NOT_BLANK.test(el.textContent ?? '');
}

/** Children that belong to the flow of a multi-column container, whose reading order is the page order. */
function multiColumn(style: CSSStyleDeclaration): boolean {
  return style.columnCount !== 'auto' || style.columnWidth !== 'auto';
}

/**
 * Reads the page as a flat list in reading order: numbered controls, and context lines for headings, landmarks,
 * dialogs and short text. Hidden, inert and aria-hidden content is left out; open (and, through `access`, closed)
 * shadow roots and same-origin iframes are walked inline; cross-origin iframes leave a placeholder for the background.
 * Reading order is settled container by container: the children of each element are put top to bottom and left to
 * right by the boxes of their lines, so a reordered flex row or a header placed late in the page reads where it is
 * seen, while a column's lines stay together. It is a function of the document alone, so it runs the same in the
 * extension, in the benchmark and in tests.
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
  const candidates: CoverCandidate[] = [];
  const layers: Layer[] = [];
  let above = 0;
  let below = 0;
  let pendingText = '';
  let pendingTextEl: Element | null = null;
  /** Whitespace (or a line break) was seen since the last text entry: the next one does not join it. */
  let spaceSeen = false;
  /** A block ended since the last text entry: the next one starts a line of its own. */
  let afterBlock = false;
  const deadline = options.deadline ?? Infinity;
  let visits = 0;
  let expired = false;
  let depth = 0;
  let tooDeep = 0;
  /**
   * The box of an element whose text runs are flushed, measured once: an inline element with thousands of runs (links
   * with commas between) would otherwise be measured again for each run, and measuring an inline box walks all its line
   * boxes, which made such a page quadratic.
   */
  const textRects = new Map<Element, DOMRect>();

  const inView = (rect: DOMRect, scope: Scope): number => {
    const top = rect.top + scope.dy;
    const bottom = rect.bottom + scope.dy;
    if (bottom < -margin) return -1;
    if (top > vh + margin) return 1;
    return 0;
  };

  /** The box lines read from an element take in reading order; none for a boxless one (display: contents). */
  const boxOf = (rect: DOMRect, scope: Scope): Box | null => {
    if (rect.width === 0 && rect.height === 0) return null;
    const top = rect.top + scope.dy + scope.shiftY;
    return { top, left: rect.left + scope.dx, bottom: top + rect.height, right: rect.right + scope.dx };
  };

  /** Ends the run of text gathered so far as one context line, and returns that line's box. */
  const flushText = (scope: Scope): Box | null => {
    const raw = pendingText;
    const text = collapse(raw);
    const el = pendingTextEl;
    const joinBefore = !spaceSeen && !LEADING_SPACE.test(raw);
    pendingText = '';
    pendingTextEl = null;
    spaceSeen = TRAILING_SPACE.test(raw);
    if (!text || !el) return null;
    let rect = textRects.get(el);
    if (!rect) {
      rect = el.getBoundingClientRect();
      textRects.set(el, rect);
    }
    if (viewport && inView(rect, scope) !== 0) return null;
    const box = boxOf(rect, scope);
    entries.push({ text, prio: 1, joinBefore, joinAfter: !spaceSeen, ...(afterBlock ? { blockStart: true } : {}), ...(box ? { box } : {}) });
    afterBlock = false;
    return box;
  };

  /** A block-level element's text starts and ends its own run: nothing before or after it joins it. */
  const endBlock = (start: number): void => {
    const first = entries[start];
    const last = entries[entries.length - 1];
    if (first && 'prio' in first) {
      first.joinBefore = false;
      first.blockStart = true;
    }
    if (last && 'prio' in last) last.joinAfter = false;
    afterBlock = true;
  };

  /**
   * Visits a parent's child nodes (text only when `text`), each child's lines kept together as a block, then puts
   * the blocks in reading order. Returns the union of their boxes.
   */
  const visitChildren = (from: Node | Node[], parent: Element, scope: Scope, showsText: Text, style: CSSStyleDeclaration | null): Box | null => {
    let text = showsText === false ? false : showsText === true ? true : null;
    // Most elements have one child block or none, so the lists are made only when a first block appears.
    let starts = null as number[] | null;
    let boxes = null as Array<Box | null> | null;
    let union = null as Box | null;
    const block = (start: number, box: Box | null): void => {
      if (entries.length === start) return;
      (starts ??= []).push(start);
      (boxes ??= []).push(box);
      union = unionBox(union, box);
    };
    // Children are followed by nextSibling: cheaper than indexing a live NodeList on pages of many thousand nodes.
    const list = Array.isArray(from) ? from : null;
    let index = 0;
    for (let node = list ? list[0] : (from as Node).firstChild; node; node = list ? list[(index += 1)] : node.nextSibling) {
      const type = node.nodeType;
      if (type === 1) {
        if (pendingText) block(entries.length, flushText(scope));
        const start = entries.length;
        let box = visit(node as Element, scope);
        if (pendingText) box = unionBox(box, flushText(scope));
        block(start, box);
      } else if (type === 3 && (text ??= (showsText as () => boolean)())) {
        const data = node.nodeValue;
        if (data && NOT_BLANK.test(data)) {
          pendingText += data;
          pendingTextEl = parent;
        } else if (data) {
          // Whitespace between two inline elements still separates their words.
          if (pendingText) pendingText += ' ';
          else spaceSeen = true;
        }
      }
    }
    if (pendingText) block(entries.length, flushText(scope));
    if (starts && boxes && starts.length > 1) reorder(starts, boxes, style);
    return union;
  };

  const reorder = (starts: number[], boxes: Array<Box | null>, style: CSSStyleDeclaration | null): void => {
    const order = readingOrder(boxes);
    if (!order || (style && multiColumn(style))) return;
    const first = starts[0] as number;
    const end = entries.length;
    const moved: Entry[] = [];
    for (const index of order) {
      const to = index + 1 < starts.length ? (starts[index + 1] as number) : end;
      for (let i = starts[index] as number; i < to; i += 1) moved.push(entries[i] as Entry);
    }
    for (let i = 0; i < moved.length; i += 1) entries[first + i] = moved[i] as Entry;
  };

  const visit = (el: Element, scope: Scope): Box | null => {
    if (depth >= MAX_DEPTH) {
      tooDeep += 1;
      return null;
    }
    depth += 1;
    try {
      return visitElement(el, scope);
    } finally {
      depth -= 1;
    }
  };

  const visitElement = (el: Element, scope: Scope): Box | null => {
    // The clock is read every few hundred elements only: reading it costs more than visiting most elements.
    if (expired || ((visits += 1) % 512 === 0 && Date.now() > deadline)) {
      expired = true;
      return null;
    }
    const tag = el.tagName;
    if (SKIP.has(tag) || SVG_UNDRAWN.has(tag)) return null;
    if (tag === 'BR') {
      spaceSeen = true;
      return null;
    }
    // A cookie banner Deputy answered for the user (extension/platform/consent-in-page.ts) is not the page's content.
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert') || el.hasAttribute('data-deputy-consent')) return null;
    // isContentEditable costs a style lookup; only an element with the attribute, or the root of a document in
    // design mode, can start an editable region.
    const editableRoot =
      !scope.editable && (tag === 'HTML' || tag === 'BODY' || el.hasAttribute('contenteditable')) && (el as HTMLElement).isContentEditable === true;
    let kind = interactiveKind(el, tag, editableRoot);
    // An element the page listens to inside an area numbered for its pointer cursor or its own listener (a mail's
    // Reply and Forward under one pointer-cursor bar, the star and bin icons on a clickable row) is a control of its
    // own, as it is for a person who sees two icons; the area gives way to it unless it listens itself.
    const listenedInside = kind?.kind !== 'strong' && scope.owner?.weakByCursor === true && access.listens?.(el) === true;
    if (listenedInside) kind = { kind: 'weak', role: 'clickable' };
    // Inside a numbered element only other controls matter, and each checks its own visibility: reading the style of
    // every span and icon in a link is most of the cost on large pages, so it is skipped.
    if (scope.owner !== null && kind?.kind !== 'strong' && !listenedInside) {
      return LEAF.has(tag) ? null : visitInside(el, tag, scope);
    }
    const style = scope.win.getComputedStyle(el);
    if (style.display === 'none') return null;
    const visible = style.visibility === 'visible';
    let rectCache: DOMRect | null = null;
    const rectOf = (): DOMRect => (rectCache ??= el.getBoundingClientRect());
    // Text a person cannot see is not page text: an instruction in white on white or moved off the screen is left out.
    // Asked only where text is shown: inside a numbered element its children's text is its name, whatever the rules
    // say, and reading the dozen styles these rules need for every link of a huge page was most of a find's time.
    let hidden: boolean | undefined;
    const hidesAll = (): boolean => (hidden ??= scope.hideText || hidesSubtree(style, rectOf, scope.win, tag === 'HTML' || tag === 'BODY'));
    const bg = backgroundFor(style, scope.bg);
    // An empty box in running text that shows an icon or a colour sample is written into the text, as a person reads
    // it there ("the item with the [icon "disk"] icon"): the caller ends the text run with it. (An icon hides its own
    // text, as jQuery UI's does by indenting it away; the box itself is still seen.) A box that is itself a control (a
    // pointer or a listener) is numbered with its icon, so it is not written into the text a second time.
    if (!kind && scope.owner === null && scope.showText && visible && el.firstChild === null && style.cursor !== 'pointer' && access.listens?.(el) !== true && !hidesAll()) {
      const seen = inlineVisual(el, style, scope.bg);
      if (seen) {
        pendingText = ` ${seen} `;
        pendingTextEl = el;
      }
    }
    // A visible control numbers its content as its own, so the cursor of its children is never asked about.
    const pointer = kind?.kind === 'strong' && visible ? scope.parentPointer : style.cursor === 'pointer';
    const position = style.position;
    const layered = position === 'fixed' || position === 'absolute' || position === 'sticky';
    // The root and the body scroll with the viewport: they clip nothing of their own.
    const root = tag === 'HTML' || tag === 'BODY';
    const seenThrough = root ? scope.clip : ownClip(position, scope.clip);
    const clipInside = root ? seenThrough : innerClip(el, style, rectOf, seenThrough);
    let rect: DOMRect | null = null;
    let box: Box | null = null;
    let childScope = scope;
    if (layered) {
      rect = rectOf();
      if (position === 'fixed' && scope.win === win) {
        // A fixed bar is read with the top of the page when it sits in the upper half of the view, and with its end
        // otherwise, not beside whatever content happens to be scrolled under it.
        const scrollY = win.scrollY;
        const shiftY = rect.top < vh / 2 ? -scrollY : doc.documentElement.scrollHeight - vh - scrollY;
        childScope = { ...scope, shiftY };
      }
    }

    let weakByCursor = false;
    // A label right before a field names that field (orphan-label.ts): it is text, never a control of its own.
    const namesField = tag === 'LABEL' && !(el as HTMLLabelElement).control ? fieldAfterLabel(el) : null;
    // Any other label that labels nothing is clickable text in apps (TodoMVC edits an item on a double-click of its label).
    if (!kind && !namesField && tag === 'LABEL' && scope.owner === null && !(el as HTMLLabelElement).control && el.childElementCount === 0) {
      kind = { kind: 'weak', role: 'label' };
    }
    if (!kind && scope.owner === null && tag !== 'HTML' && tag !== 'BODY' && draggable(el, style)) {
      kind = { kind: 'weak', role: 'draggable' };
    }
    // A link inside an SVG drawing is an <a> of the SVG namespace (lower-case tag), which the HTML roles miss.
    if (!kind && tag === 'a' && (el.hasAttribute('href') || el.hasAttribute('xlink:href'))) kind = { kind: 'strong', role: 'link' };
    if (!kind && pointer && !scope.parentPointer && scope.owner === null && tag !== 'LABEL' && tag !== 'HTML' && tag !== 'BODY') {
      kind = { kind: 'weak', role: structureRole(el, tag) ?? 'clickable' };
      weakByCursor = true;
    }
    // An element the page listens to for clicks, pointer or keys acts like a control whatever its cursor; like a
    // pointer-cursor area it gives way to a real control inside it.
    if (!kind && scope.owner === null && tag !== 'HTML' && tag !== 'BODY' && access.listens?.(el) === true) {
      kind = { kind: 'weak', role: 'clickable' };
      weakByCursor = true;
    }

    let owner = scope.owner;
    if (kind && visible && (kind.kind === 'strong' || owner === null || listenedInside)) {
      rect ??= el.getBoundingClientRect();
      // checkVisibility sees what the computed style of the element alone does not: content skipped by a closed
      // <details> or an ancestor with content-visibility: hidden.
      if (rect.width > 0 && rect.height > 0 && el.checkVisibility()) {
        const where = inView(rect, scope);
        if (where < 0) above += 1;
        else if (where > 0) below += 1;
        if (!viewport || where === 0) {
          const name = accessibleName(el, tag, kind.role);
          const ann = annotations(el, tag, kind.role, name, origin, path);
          // A control with no name says so: a name made up from a class or an id would read as the page's words.
          if (!name) {
            // What a person sees on it instead of words: the icon's picture (its file's name) or symbol.
            const icon = iconHint(el, style);
            const shown = rect;
            const colour = icon || el.firstElementChild !== null ? '' : swatchColour(style, () => shown, scope.bg);
            ann.unshift(icon ? `unnamed, icon ${JSON.stringify(icon)}` : colour ? `unnamed, colour ${JSON.stringify(colour)}` : 'unnamed');
          }
          if (el === focused) ann.push('focused');
          // A control scrolled out of the box that holds it (a calendar that scrolls on its own) is not seen, whatever
          // is drawn where it would be; one partly out is hit-tested, and would be clicked, in the part that shows.
          const seen = clipped(rect, seenThrough);
          if (!seen) ann.push('offscreen');
          else if (seen.bottom + scope.dy > 0 && seen.top + scope.dy < vh) candidates.push({ el, rect: seen, dx: scope.dx, dy: scope.dy, ann });
          const item: Pending = { el, role: kind.role, name, ann, weakByCursor: weakByCursor || listenedInside, dropped: false };
          if (owner?.weakByCursor && (kind.kind === 'strong' || (listenedInside && access.delegates?.(owner.el) !== true))) owner.dropped = true;
          entries.push(item);
          box = boxOf(rect, childScope);
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

    // Under a numbered element (owner) no text is shown, so whether this one hides its text decides nothing below.
    const hideText = owner === null ? hidesAll() : scope.hideText;
    /** Whether this element's own text runs are hidden: asked only when one is met. */
    const ownTextHidden = (): boolean => hideText || hidesOwnText(style, bg);
    if (owner === null && visible) {
      const level = headingLevel(el, tag);
      const landmark = level === 0 ? landmarkRole(el, tag) : null;
      if (level > 0 || landmark) {
        rect ??= el.getBoundingClientRect();
        if (!viewport || inView(rect, scope) === 0) {
          // A heading made of a link is shown by the link's own line; a plain heading is one context line.
          if (level > 0 && !el.querySelector('a[href], button, input, [role=link], [role=button]')) {
            if (el.firstElementChild === null && ownTextHidden()) return null;
            const text = cutText(collapse(el.firstElementChild === null ? (el.textContent ?? '') : visibleText(el)), maxText * 2);
            if (!text) return null;
            entries.push({ text: `${'#'.repeat(level)} ${text}`, prio: 2 });
            return boxOf(rect, childScope);
          }
          if (level > 0) return visitChildren(el, el, { ...childScope, parentPointer: pointer }, childScope.showText, style);
          const dialog = landmark === 'dialog' || landmark === 'alertdialog';
          const name = landmarkName(el) || (dialog ? dialogTitle(el) : '');
          if (dialog) {
            if (tag !== 'DIALOG' || (el as HTMLDialogElement).open) dialogs.push(name || landmark);
          }
          const label = landmark === 'region' || landmark === 'form' || !name ? landmark : `${landmark} ${JSON.stringify(clip(name, 40))}`;
          entries.push({ text: `${label}:`, prio: 2 });
          box = boxOf(rect, childScope);
        }
      }
    }

    // An SVG drawing is read into only for what a person reads or uses on it: its text (a chart's labels, a letter
    // drawn as a figure), and the links and listened-to shapes it holds.
    if (LEAF.has(tag) && !(tag === 'svg' && (el.querySelector('text, a') !== null || access.holdsListener?.(el) === true))) return box;
    const editable = scope.editable || editableRoot;
    // The text of a label that gives a field its name is shown as that name, not again as text.
    const inLabel = scope.inLabel || (tag === 'LABEL' && ((el as HTMLLabelElement).control !== null || (namesField !== null && namesOwnField(namesField))));
    const showText = visible && !inLabel;
    // Most elements change nothing for their children: their scope is shared rather than copied.
    const same =
      owner === scope.owner &&
      pointer === scope.parentPointer &&
      editable === scope.editable &&
      inLabel === scope.inLabel &&
      showText === scope.showText &&
      hideText === scope.hideText &&
      bg === scope.bg &&
      clipInside === scope.clip &&
      childScope.shiftY === scope.shiftY;
    const child: Scope = same
      ? scope
      : { win: scope.win, dx: scope.dx, dy: scope.dy, shiftY: childScope.shiftY, owner, parentPointer: pointer, editable, inLabel, showText, hideText, bg, clip: clipInside };
    const textStart = entries.length;
    const inner = visitContent(el, tag, child, child.owner === null && child.showText ? () => !ownTextHidden() : false, style);
    // An SVG text is drawn at a place of its own, not in a line with the text before it: a block of its own.
    if (entries.length > textStart && (!inlineLevel(style.display) || tag === 'text')) endBlock(textStart);
    box = unionBox(box, inner);
    if (layered && rect) {
      // Content painted over the page: a control under it is hit-tested for `covered`.
      const own = rect.width > 0 && rect.height > 0 ? boxOf(rect, { ...scope, shiftY: 0 }) : null;
      const drawn = inner && childScope.shiftY !== 0 ? { ...inner, top: inner.top - childScope.shiftY, bottom: inner.bottom - childScope.shiftY } : inner;
      const area = unionBox(own, drawn);
      if (area) layers.push({ el, box: area });
    }
    // A sticky element is seen where it is stuck, not where it belongs in the page: its page place stands.
    return position === 'sticky' ? null : box;
  };

  /** An element's children: a frame's document, a shadow root, a slot's assigned nodes, or its child nodes. */
  const visitContent = (el: Element, tag: string, scope: Scope, text: Text, style: CSSStyleDeclaration | null): Box | null => {
    if (tag === 'IFRAME' || tag === 'FRAME') return visitFrame(el, scope);
    const root = access.shadowRootOf(el);
    if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
      const summary = Array.from(el.children).find((c) => c.tagName === 'SUMMARY');
      return summary ? visitChildren([summary], el, scope, false, null) : null;
    }
    if (root) return visitChildren(root, el, scope, text, style);
    if (tag === 'SLOT') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      return visitChildren(assigned.length > 0 ? assigned : el, el, scope, text, style);
    }
    return visitChildren(el, el, scope, text, style);
  };

  const visitInside = (el: Element, tag: string, scope: Scope): Box | null => {
    if (tag === 'IFRAME' || tag === 'FRAME') return visitFrame(el, scope);
    const root = access.shadowRootOf(el);
    const children = root ?? (tag === 'SLOT' ? (el as HTMLSlotElement).assignedNodes({ flatten: true }) : el);
    return visitChildren(children, el, scope, false, null);
  };

  const visitFrame = (frame: Element, scope: Scope): Box | null => {
    let inner: Document | null = null;
    try {
      inner = (frame as HTMLIFrameElement).contentDocument;
    } catch {
      inner = null;
    }
    const rect = frame.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return null;
    if (inner?.documentElement && inner.defaultView) {
      const frameScope: Scope = {
        ...scope,
        win: inner.defaultView,
        dx: scope.dx + rect.left + frame.clientLeft,
        dy: scope.dy + rect.top + frame.clientTop,
        parentPointer: false,
        // The frame's document has a viewport of its own.
        clip: null,
      };
      return visitChildren([inner.documentElement], frame, frameScope, false, null);
    }
    if (viewport && inView(rect, scope) !== 0) return null;
    const key = access.frameKeyOf(frame);
    if (key === null) return null;
    entries.push({ key });
    return boxOf(rect, scope);
  };

  const top: Scope = { win, dx: 0, dy: 0, shiftY: 0, owner: null, parentPointer: false, editable: false, showText: true, inLabel: false, hideText: false, bg: [255, 255, 255], clip: null };
  if (doc.documentElement) visitChildren([doc.documentElement], doc.documentElement, top, false, null);
  // Hit tests come last, once every layer that could cover a control is known.
  markCovered(candidates, layers, win.innerWidth, vh);

  const collected = finishSnapshot(entries, registry, maxText, { url: win.location.href, title: doc.title, above, below, dialogs, focused });
  const omitted: string[] = [];
  if (expired) {
    collected.snapshot.partial = true;
    omitted.push(`the page is too large to read in time: the walk stopped after ${visits} elements, and what comes after the last line shown was left out (use find to search it, or scroll and take a viewport snapshot)`);
  }
  if (tooDeep > 0) omitted.push(`${tooDeep} parts nested deeper than ${MAX_DEPTH} levels were left out`);
  if (omitted.length > 0) collected.snapshot.omitted = omitted;
  return collected;
}

import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { CDPSession, Page } from 'puppeteer-core';
import { AX_MARK, type AxDeputyItem } from './ax-page-entry';

// Compares Deputy's snapshot with Chromium's accessibility tree, control by control: for every element the snapshot
// numbers, its role, name and states beside what Chromium's tree (CDP Accessibility domain) says for the same DOM node.

/** The extension's snapshot code with the comparison's entry, as one script to inject into a page. */
export async function bundleAxEntry(): Promise<string> {
  const out = await build({
    entryPoints: [resolve(import.meta.dirname, 'ax-page-entry.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    target: 'chrome120',
    logLevel: 'silent',
  });
  const file = out.outputFiles[0];
  if (!file) throw new Error('esbuild produced no bundle for the accessibility comparison');
  return file.text;
}

export interface AxChromium {
  role: string;
  name: string;
  states: string[];
}

export interface AxControl {
  deputy: { role: string; name: string; states: string[] };
  /** Deputy's name is the element's id or one of its classes (with or without # or .). */
  invented: boolean;
  chromium: AxChromium | null;
  role: boolean;
  name: boolean;
  states: boolean;
}

export interface AxPageReport {
  controls: AxControl[];
  /** Controls with no node in Chromium's tree (the DOM node was not found, or the tree ignores it). */
  unmatched: number;
}

/** The states both sides can say, as Deputy writes them. */
const STATE_WORDS = new Set(['checked', 'mixed', 'pressed', 'selected', 'expanded', 'collapsed', 'disabled']);

/**
 * Chromium's role words that mean "no role of its own" (a div, a span, a paragraph): a control Deputy found by its
 * behaviour (a pointer cursor, a tabindex, a click handler, a drag handle) and calls `clickable`, `focusable` or
 * `draggable` agrees with them, as that says no more than Chromium's tree does.
 */
const GENERIC = new Set(['generic', 'none', 'presentation', 'StaticText', 'paragraph', 'Section', 'group', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell', 'Pre', 'Abbr', 'emphasis', 'strong', 'code', 'time', 'mark', 'Ruby', 'sectionheader', 'sectionfooter', 'blockquote', 'DescriptionListTerm', 'DescriptionListDetail', 'Canvas', 'Unknown', 'subscript', 'superscript', 'insertion', 'deletion', 'Figcaption', 'Legend', 'Caption']);
const DEPUTY_BEHAVIOUR_ROLES = new Set(['clickable', 'focusable', 'draggable']);

/** Chromium's own words for roles ARIA names otherwise, or that Deputy names by the field's kind. */
const SAME_ROLE: Record<string, string[]> = {
  button: ['DisclosureTriangle', 'PopUpButton', 'ToggleButton'],
  label: ['LabelText'],
  img: ['image'],
  time: ['InputTime'],
  'datetime-local': ['DateTime'],
  month: ['DateTime', 'date'],
  week: ['DateTime', 'date'],
  date: ['date', 'Date'],
  combobox: ['PopUpButton', 'MenuListPopup'],
  textbox: ['TextField', 'textbox', 'searchbox'],
  link: ['link'],
};

function collapse(text: string): string {
  return text.replace(/[\u200b-\u200d\ufeff]/g, '').replace(/\s+/g, ' ').trim();
}

export function sameRole(deputy: string, chromium: string): boolean {
  if (deputy === chromium) return true;
  if ((SAME_ROLE[deputy] ?? []).includes(chromium)) return true;
  return DEPUTY_BEHAVIOUR_ROLES.has(deputy) && GENERIC.has(chromium);
}

/** Equal, or Deputy's is Chromium's cut short with an ellipsis (a long name is clipped for the model). */
export function sameName(deputy: string, chromium: string): boolean {
  const a = collapse(deputy);
  if (a === '' && chromium.trim() !== '') return false;
  const b = collapse(chromium);
  if (a === b) return true;
  if (a.endsWith('…')) return b.startsWith(a.slice(0, -1).trimEnd());
  return false;
}

/**
 * Where Chromium's tree gives a control no name (a clickable div, a label), Deputy agrees when it gives none either,
 * or when its name is the element's own text as a person reads it; a name found nowhere in the element (a class, an
 * id) is invented.
 */
export function readFromElement(deputy: string, own: string): boolean {
  const name = collapse(deputy).replace(/…$/, '');
  return name === '' || collapse(own).includes(name) || collapse(own).replace(/\s/g, '').includes(name.replace(/\s/g, ''));
}

interface RawAxNode {
  ignored?: boolean;
  role?: { value?: string };
  name?: { value?: string };
  properties?: Array<{ name: string; value: { value?: unknown } }>;
}

export function chromiumStates(node: RawAxNode): string[] {
  const out: string[] = [];
  const prop = (name: string): unknown => node.properties?.find((p) => p.name === name)?.value.value;
  const checked = prop('checked');
  if (checked === 'true') out.push('checked');
  if (checked === 'mixed' || prop('pressed') === 'mixed') out.push('mixed');
  if (prop('pressed') === 'true') out.push('pressed');
  if (prop('selected') === true) out.push('selected');
  const expanded = prop('expanded');
  if (expanded === true) out.push('expanded');
  if (expanded === false) out.push('collapsed');
  if (prop('disabled') === true) out.push('disabled');
  return out.sort();
}

interface DomNode {
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
  templateContent?: DomNode;
}

/** The backend node id of each tagged element, through shadow roots and same-origin frames. */
function taggedNodes(root: DomNode): Map<number, number> {
  const out = new Map<number, number>();
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as DomNode;
    const attrs = node.attributes;
    if (attrs) {
      for (let i = 0; i + 1 < attrs.length; i += 2) {
        if (attrs[i] === AX_MARK) out.set(Number(attrs[i + 1]), node.backendNodeId);
      }
    }
    stack.push(...(node.children ?? []), ...(node.shadowRoots ?? []));
    if (node.contentDocument) stack.push(node.contentDocument);
  }
  return out;
}

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

/** Every frame's whole tree at once, by DOM node: one call per frame rather than one per control. */
async function fullTrees(session: CDPSession): Promise<Map<number, RawAxNode>> {
  const { frameTree } = (await session.send('Page.getFrameTree')) as unknown as { frameTree: FrameTree };
  const ids: string[] = [];
  const stack = [frameTree];
  while (stack.length > 0) {
    const tree = stack.pop() as FrameTree;
    ids.push(tree.frame.id);
    stack.push(...(tree.childFrames ?? []));
  }
  const out = new Map<number, RawAxNode>();
  for (const frameId of ids) {
    const reply = (await session.send('Accessibility.getFullAXTree', { frameId }).catch(() => ({ nodes: [] }))) as { nodes: Array<RawAxNode & { backendDOMNodeId?: number }> };
    for (const node of reply.nodes) if (node.backendDOMNodeId !== undefined) out.set(node.backendDOMNodeId, node);
  }
  return out;
}

async function axNodeOf(session: CDPSession, backendNodeId: number): Promise<RawAxNode | null> {
  const reply = (await session.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false })) as { nodes: Array<RawAxNode & { backendDOMNodeId?: number }> };
  return reply.nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? reply.nodes[0] ?? null;
}

/** Runs Deputy's snapshot in the page (the bundle from bundleAxEntry) and compares every numbered control with Chromium's tree. */
export async function compareAx(page: Page, bundle: string): Promise<AxPageReport> {
  await page.evaluate(bundle);
  const items = await page.evaluate(() => (globalThis as unknown as { deputyAx: { numberedControls(): AxDeputyItem[] } }).deputyAx.numberedControls());
  const session = await page.createCDPSession();
  try {
    await session.send('Accessibility.enable');
    const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
    const nodes = taggedNodes(root);
    const trees = await fullTrees(session);
    const controls: AxControl[] = [];
    let unmatched = 0;
    for (const item of items) {
      const states = item.ann.filter((a) => STATE_WORDS.has(a)).sort();
      const deputy = { role: item.role, name: item.name, states };
      const bare = item.name.replace(/^[.#]/, '');
      const invented = bare !== '' && item.hints.includes(bare);
      const backend = nodes.get(item.index);
      const raw = backend === undefined ? null : (trees.get(backend) ?? (await axNodeOf(session, backend).catch(() => null)));
      if (!raw || raw.ignored) {
        unmatched += 1;
        controls.push({ deputy, invented, chromium: null, role: false, name: false, states: false });
        continue;
      }
      const chromium: AxChromium = { role: raw.role?.value ?? '', name: collapse(raw.name?.value ?? ''), states: chromiumStates(raw) };
      controls.push({
        deputy,
        invented,
        chromium,
        role: sameRole(deputy.role, chromium.role),
        name: chromium.name ? sameName(deputy.name, chromium.name) : readFromElement(deputy.name, item.ownText),
        states: deputy.states.join(' ') === chromium.states.join(' '),
      });
    }
    return { controls, unmatched };
  } finally {
    await session.detach().catch(() => undefined);
  }
}

export interface AxTotals {
  controls: number;
  role: number;
  name: number;
  states: number;
  all: number;
}

export function totals(reports: AxPageReport[]): AxTotals {
  const controls = reports.flatMap((r) => r.controls);
  return {
    controls: controls.length,
    role: controls.filter((c) => c.role).length,
    name: controls.filter((c) => c.name).length,
    states: controls.filter((c) => c.states).length,
    all: controls.filter((c) => c.role && c.name && c.states).length,
  };
}

/** One disagreement, as a line a person reads. */
export function describeMismatch(c: AxControl): string {
  const ch = c.chromium;
  if (!ch) return `${c.deputy.role} ${JSON.stringify(c.deputy.name)}: not in Chromium's tree`;
  const parts: string[] = [];
  if (!c.role) parts.push(`role ${c.deputy.role} vs ${ch.role}`);
  if (!c.name) parts.push(`name ${JSON.stringify(c.deputy.name)} vs ${JSON.stringify(ch.name)}`);
  if (!c.states) parts.push(`states [${c.deputy.states.join(' ')}] vs [${ch.states.join(' ')}]`);
  return `${c.deputy.role} ${JSON.stringify(c.deputy.name)}: ${parts.join('; ')}`;
}

import { AppError } from '../../../shared/errors';
import type { ElementAction } from '../../../shared/perception/element-action';
import type { DomAccess } from '../perception/dom-access';
import type { InputDriver } from './input-types';
import { deepElementAt, describeElement } from './pointer-events';

type PointAction = Extract<ElementAction, { kind: 'point' }>;

/** The element under a point of the viewport (into shadow roots), or an error that says where the viewport ends. */
export function elementAtPoint(doc: Document, x: number, y: number, access: DomAccess): Element {
  const win = doc.defaultView;
  if (win && (x >= win.innerWidth || y >= win.innerHeight)) {
    throw new AppError('invalid_params', `(${Math.round(x)}, ${Math.round(y)}) is outside the visible page, which is ${win.innerWidth} x ${win.innerHeight}: scroll first, then read the position off a new screenshot`);
  }
  const hit = deepElementAt(doc, x, y, access);
  if (!hit) throw new AppError('not_found', `nothing of the page is at (${Math.round(x)}, ${Math.round(y)})`);
  return hit;
}

/** Where an element is, for the evidence: its box in viewport pixels. */
function boxOf(el: Element): string {
  const r = el.getBoundingClientRect();
  return `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
}

/**
 * Clicks, hovers or drags at a point of the top frame's viewport through the same input driver as element actions
 * (trusted input through the debugger, else synthetic events on the element under the point). The evidence names
 * the element under the point, and for a drag where the element it started on is now, so the model can tell whether
 * the drag landed where it meant.
 */
export async function pointAt(doc: Document, action: PointAction, access: DomAccess, driver: InputDriver): Promise<{ message: string; evidence: string[] }> {
  const at = { x: action.x, y: action.y };
  const where = `(${Math.round(at.x)}, ${Math.round(at.y)})`;
  const hit = elementAtPoint(doc, at.x, at.y, access);
  const evidence = [`under ${where}: ${describeElement(hit)}`];
  switch (action.op) {
    case 'click':
    case 'double':
      await driver.click(hit, at, action.op === 'double' ? 2 : 1);
      return { message: `${action.op === 'double' ? 'double-clicked' : 'clicked'} at ${where}`, evidence };
    case 'hover':
      await driver.hover(hit, at);
      return { message: `moved the mouse to ${where}`, evidence };
    case 'drag': {
      if (action.toX === undefined || action.toY === undefined) throw new AppError('invalid_params', 'a drag at a position needs where it ends (to_x, to_y)');
      const to = { x: action.toX, y: action.toY };
      const drop = elementAtPoint(doc, to.x, to.y, access);
      const before = boxOf(hit);
      await driver.drag({ el: hit, at }, { el: drop, at: to });
      const after = boxOf(hit);
      evidence.push(`under (${Math.round(to.x)}, ${Math.round(to.y)}) before the drop: ${describeElement(drop)}`);
      if (hit.isConnected && after !== before) evidence.push(`the element it started on moved from ${before} to ${after}`);
      return { message: `dragged from ${where} to (${Math.round(to.x)}, ${Math.round(to.y)})`, evidence };
    }
  }
}

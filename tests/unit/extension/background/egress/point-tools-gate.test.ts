import { describe, expect, it } from 'vitest';
import type { ActionEffect } from '../../../../../shared/agent/action-effect';
import { controlTools } from '../../../../../shared/agent/control-tools';
import { PolicyConfig, gateToolCall } from '../../../../../shared/agent/policy-gate';
import { createSecretVault } from '../../../../../shared/agent/secret-vault';
import type { AnyTool } from '../../../../../shared/agent/tool';
import { webTools } from '../../../../../shared/agent/web-tools';
import { elementActionFor, gateFactsFor } from '../../../../../extension/background/egress/task-egress';

// Issue 26, item 1: input at a position (click_at, hover_at, drag_at) passes the same gate as input on a numbered
// element: the gate is told what the element under the point would do, and judges the frame the point lands in.

const SHOP = 'http://shop.test:8080';
const tools = [...webTools, ...controlTools()] as AnyTool<never>[];
const tool = (name: string): AnyTool<never> => tools.find((t) => t.name === name) as AnyTool<never>;

function effect(over: Partial<ActionEffect> = {}): ActionEffect {
  return { frameUrl: `${SHOP}/p`, element: { tag: 'CANVAS', type: '', text: '', danger: false }, submits: false, context: '', ...over };
}

function gate(name: string, args: Record<string, unknown>, found?: ActionEffect, config: Partial<PolicyConfig> = {}) {
  return gateToolCall({
    tool: tool(name),
    args,
    page: { url: `${SHOP}/p`, element: () => undefined },
    vault: createSecretVault({ entries: {} }),
    plan: null,
    config: PolicyConfig.parse({ mode: 'act', ...config }),
    startUrl: `${SHOP}/`,
    ...(found ? { facts: { effect: found } } : {}),
  });
}

describe('input at a position is gated like input on an element', () => {
  it('asks the page what lies under the point, for every position tool', async () => {
    const asked: unknown[] = [];
    const facts = await gateFactsFor(
      (_tab, ref, action) => {
        asked.push({ ref, action });
        return Promise.resolve(effect());
      },
      7,
      { tool: 'click_at', args: { x: 40, y: 50, double: true } },
    );
    expect(facts.effect?.element.tag).toBe('CANVAS');
    expect(asked).toEqual([{ ref: undefined, action: { kind: 'point', op: 'double', x: 40, y: 50 } }]);
    expect(elementActionFor('hover_at', { x: 1, y: 2 })).toEqual({ kind: 'point', op: 'hover', x: 1, y: 2 });
    expect(elementActionFor('drag_at', { x: 1, y: 2, to_x: 3, to_y: 4 })).toEqual({ kind: 'point', op: 'drag', x: 1, y: 2 });
    expect(elementActionFor('click_at', { x: 'left' })).toBeNull();
  });

  it('allows a click on the task site, asks before one that follows a link elsewhere or lands in another site\'s frame, and denies a denied site', () => {
    expect(gate('click_at', { x: 10, y: 10 }, effect()).decision).toBe('allow');
    const away = gate('click_at', { x: 10, y: 10 }, effect({ element: { tag: 'A', type: '', text: 'Prize', danger: false }, link: { url: 'http://evil.test:9/x', newWindow: false } }));
    expect(away).toMatchObject({ decision: 'ask', destination: 'http://evil.test:9' });
    expect(gate('hover_at', { x: 10, y: 10 }, effect({ frameUrl: 'http://ads.test:7/frame' })).decision).toBe('ask');
    expect(gate('drag_at', { x: 1, y: 1, to_x: 9, to_y: 9 }, effect({ frameUrl: 'https://bad.example/x' }), { deniedSites: ['bad.example'] }).decision).toBe('deny');
    const submit = gate('click_at', { x: 5, y: 5 }, effect({ element: { tag: 'BUTTON', type: 'submit', text: 'Pay now', danger: false }, submits: true, form: { action: 'http://pay.test:9/charge', method: 'post', newWindow: false, fields: [], submitLabel: 'Pay now' } }));
    expect(submit.decision).toBe('ask');
  });

  it('the screenshot tool only reads', () => {
    expect(gate('screenshot', {}).decision).toBe('allow');
    expect(tool('screenshot').risk).toBe('read');
  });
});

// Issue 24, item 2: a drag carries what it picks up to where it lets go, so the gate judges its drop as well as its
// start (a drag from the shop's own page into an ad frame of another site used to pass as a drag on the shop).
describe('a drag is judged where it lets go', () => {
  const onShop = effect();
  const inFrame = (url: string, text = ''): ActionEffect => effect({ frameUrl: url, element: { tag: 'DIV', type: '', text, danger: false } });
  const dragGate = (name: string, args: Record<string, unknown>, drop: ActionEffect, config: Partial<PolicyConfig> = {}, taskSites: string[] = []) =>
    gateToolCall({
      tool: tool(name),
      args,
      page: { url: `${SHOP}/p`, element: (ref) => (ref === 1 || ref === 2 ? { ref, role: 'listitem', name: `item ${ref}` } : undefined) },
      vault: createSecretVault({ entries: {} }),
      plan: null,
      config: PolicyConfig.parse({ mode: 'act', ...config }),
      startUrl: `${SHOP}/`,
      taskSites,
      facts: { effect: onShop, drop },
    });

  it('asks the page what lies at the drop point, the drop target, or the offset, for both drag tools', async () => {
    const asked: unknown[] = [];
    const ask = (_tab: number, ref: number | undefined, action: unknown) => {
      asked.push({ ref, action });
      return Promise.resolve(ref === 2 || (action as { op?: string }).op === 'hover' ? inFrame('http://evil.test:9/drop') : onShop);
    };
    const byPoint = await gateFactsFor(ask, 7, { tool: 'drag_at', args: { x: 1, y: 2, to_x: 30, to_y: 40 } });
    expect(byPoint.drop?.frameUrl).toBe('http://evil.test:9/drop');
    const byRef = await gateFactsFor(ask, 7, { tool: 'drag', args: { ref: 1, to_ref: 2, dx: 0, dy: 0, position: 'center' } });
    expect(byRef.drop?.frameUrl).toBe('http://evil.test:9/drop');
    await gateFactsFor(ask, 7, { tool: 'drag', args: { ref: 1, dx: 300, dy: -20, position: 'center' } });
    expect(asked).toEqual([
      { ref: undefined, action: { kind: 'point', op: 'drag', x: 1, y: 2 } },
      { ref: undefined, action: { kind: 'point', op: 'hover', x: 30, y: 40 } },
      { ref: 1, action: { kind: 'hover' } },
      { ref: 2, action: { kind: 'hover' } },
      { ref: 1, action: { kind: 'hover' } },
      { ref: 1, action: { kind: 'drag', to: null, dx: 300, dy: -20, position: 'center' } },
    ]);
  });

  it('asks before a drop into another site\'s frame, naming it; refuses a denied site; allows a drop on the shop itself', () => {
    for (const [name, args] of [['drag_at', { x: 1, y: 1, to_x: 9, to_y: 9 }], ['drag', { ref: 1, to_ref: 2, dx: 0, dy: 0, position: 'center' }]] as const) {
      const away = dragGate(name, args, inFrame('http://evil.test:9/drop'));
      expect(away, name).toMatchObject({ decision: 'ask', destination: 'http://evil.test:9' });
      expect(away.reason).toContain('it drops what it drags into a frame from http://evil.test:9');
      expect(dragGate(name, args, inFrame('https://bad.example/x'), { deniedSites: ['bad.example'] }).decision, name).toBe('deny');
      expect(dragGate(name, args, inFrame(`${SHOP}/list`)).decision, name).toBe('allow');
      // Approved, but another site than the one the drag starts in: what it carries changes hands, so it asks.
      const across = dragGate(name, args, inFrame('http://cdn.test:7/drop'), {}, ['http://cdn.test:7']);
      expect(across.decision, name).toBe('ask');
      expect(across.reason).toContain(`it drags from ${SHOP} and drops into a frame from http://cdn.test:7`);
    }
  });

  it('reads the drop target\'s words as a control\'s label', () => {
    expect(dragGate('drag', { ref: 1, to_ref: 2, dx: 0, dy: 0, position: 'center' }, inFrame(`${SHOP}/list`, 'Drop here to delete your account')).decision).toBe('ask');
  });
});

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

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { chatAgentTools } from '../../../../shared/agent/chat-tools';
import { controlTools } from '../../../../shared/agent/control-tools';
import type { ActionEffect } from '../../../../shared/agent/action-effect';
import { PAGE_INPUT_TEXT } from '../../../../shared/agent/page-input-tools';
import { PolicyConfig, gateToolCall } from '../../../../shared/agent/policy-gate';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import type { AnyTool, ToolContext } from '../../../../shared/agent/tool';
import { webAgentTools } from '../../../../shared/agent/web-tools';

// Issue 24, item 2: every path into a page is one gate. This walks the tool registries the agent is given (web
// tasks, support chats) and runs each tool's handler with a placeholder in every argument it takes; a tool whose
// handler hands the resolved value to the page (an action, a chat message) must be one the gate judges as page input.

const SECRET = 'SECRET-VALUE-4111111111111111';
const PLACEHOLDER = '{{card_number}}';

/** Argument bags with the placeholder wherever text can go; a tool takes the first one its schema accepts. */
const BAGS: Record<string, unknown>[] = ['accept', 'keep', 'new', 'list', 'switch', 'resolved', 'none'].map((action) => ({
  ref: 1,
  to_ref: 2,
  text: PLACEHOLDER,
  value: PLACEHOLDER,
  values: [PLACEHOLDER],
  key: 'Enter',
  url: `https://shop.test/?q=${PLACEHOLDER}`,
  files: ['a.pdf'],
  id: 'd1',
  choice: PLACEHOLDER,
  seconds: 1,
  action,
  tabId: 2,
  success: true,
  summary: 'done',
  outcome: 'resolved',
  question: PLACEHOLDER,
  steps: ['one'],
  direction: 'down',
  x: 10,
  y: 10,
  to_x: 300,
  to_y: 40,
}));

interface Sent {
  what: string;
}

function contextFor(sent: Sent[]): ToolContext<never> {
  const environment = {
    act: (action: unknown) => {
      sent.push({ what: JSON.stringify(action) });
      return Promise.resolve({ ok: true, changed: true, message: 'done', evidence: [] });
    },
    chat: {
      send: (text: string) => {
        sent.push({ what: text });
        return Promise.resolve({ ok: true, message: 'sent' });
      },
      choose: (text: string) => {
        sent.push({ what: text });
        return Promise.resolve({ ok: true, message: 'chosen' });
      },
      read: () => Promise.resolve({ messages: [] }),
      wait: () => Promise.resolve({ messages: [] }),
    },
  };
  return {
    environment,
    resolveSecrets: (text: string) => text.split(PLACEHOLDER).join(SECRET),
    setPlan: () => undefined,
    askUser: () => Promise.resolve(null),
    finish: () => undefined,
  } as unknown as ToolContext<never>;
}

async function putsDataIntoPage(tool: AnyTool<never>): Promise<boolean> {
  const input = tool.input as z.ZodType;
  for (const bag of BAGS) {
    const parsed = input.safeParse(bag);
    if (!parsed.success) continue;
    const sent: Sent[] = [];
    await Promise.resolve(tool.handler(parsed.data as Record<string, unknown>, contextFor(sent))).catch(() => undefined);
    if (sent.some((s) => s.what.includes(SECRET))) return true;
  }
  return false;
}

const registries: [string, AnyTool<never>[]][] = [
  ['web task', webAgentTools()],
  ['support chat', chatAgentTools()],
  ['control', controlTools<never>()],
];

describe('every tool that can put data into a page passes the one page-input gate', () => {
  for (const [name, tools] of registries) {
    it(`${name} tools`, async () => {
      const inputs: string[] = [];
      for (const tool of tools) if (await putsDataIntoPage(tool)) inputs.push(tool.name);
      // The walk found the tools it must (it is not vacuous) ...
      if (name === 'web task') expect(inputs).toEqual(expect.arrayContaining(['type', 'select', 'set_value', 'dialog']));
      if (name === 'support chat') expect(inputs).toContain('chat_send');
      // ... and every one of them is judged by the gate as page input.
      for (const tool of inputs) expect(Object.keys(PAGE_INPUT_TEXT), `${tool} puts data into the page without the page-input gate`).toContain(tool);
    });
  }
});

/** The actions a tool's handler hands the page, as JSON, for the first argument bag its schema takes. */
async function actionsOf(tool: AnyTool<never>): Promise<string[]> {
  for (const bag of BAGS) {
    const parsed = (tool.input as z.ZodType).safeParse(bag);
    if (!parsed.success) continue;
    const sent: Sent[] = [];
    await Promise.resolve(tool.handler(parsed.data as Record<string, unknown>, contextFor(sent))).catch(() => undefined);
    return sent.map((s) => s.what);
  }
  return [];
}

// Item 2 again, for data a tool carries rather than types: a drag picks something up (a selection, a field's text, an
// item) and lets it go somewhere else, whose page script then has it. Every tool whose action names a second place
// (a drop target, an end point) must be judged there too: with the drop in another site's frame, the gate asks.
describe('every tool that carries something to another place on the page is judged where it lets go', () => {
  const SHOP = 'http://shop.test:8080';
  const at = (frameUrl: string): ActionEffect => ({ frameUrl, element: { tag: 'DIV', type: '', text: '', danger: false }, submits: false, context: '' });
  for (const [name, tools] of registries) {
    it(`${name} tools`, async () => {
      const carriers: string[] = [];
      for (const tool of tools) {
        const actions = await actionsOf(tool);
        if (!actions.some((a) => /"(?:toRef|toX|toY|to)"\s*:/.test(a))) continue;
        carriers.push(tool.name);
        const verdict = gateToolCall({
          tool,
          args: BAGS.map((bag) => (tool.input as z.ZodType).safeParse(bag)).find((p) => p.success)?.data as Record<string, unknown>,
          page: { url: `${SHOP}/p`, element: (ref) => ({ ref, role: 'listitem', name: `item ${ref}` }) },
          vault: createSecretVault({ entries: {} }),
          plan: null,
          config: PolicyConfig.parse({ mode: 'act' }),
          startUrl: `${SHOP}/`,
          facts: { effect: at(`${SHOP}/p`), drop: at('http://evil.test:9/drop') },
        });
        expect(verdict.decision, `${tool.name} lets go in another site's frame without the gate judging the drop`).toBe('ask');
        expect(verdict.destination).toBe('http://evil.test:9');
      }
      if (name === 'web task') expect(carriers.sort()).toEqual(['drag', 'drag_at']);
    });
  }
});

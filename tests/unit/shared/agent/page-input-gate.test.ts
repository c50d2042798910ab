import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { chatAgentTools } from '../../../../shared/agent/chat-tools';
import { controlTools } from '../../../../shared/agent/control-tools';
import { PAGE_INPUT_TEXT } from '../../../../shared/agent/page-input-tools';
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

import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../shared/agent/agent-state';
import { AppError } from '../../../../shared/errors';
import { HostRequestChannel, MCP_REDACT_MAX_CHARS, McpRedactParams, McpRevealParams, McpRevealResult, type McpActivity, type McpSessionRef } from '../../../../shared/protocol';
import { fitForRedaction, redactForAgent } from '../../../../native-host/mcp/agent-redaction';
import type { BrowserLink } from '../../../../native-host/mcp/browser-link';
import { McpBroker } from '../../../../native-host/mcp/mcp-broker';
import type { McpShell } from '../../../../native-host/mcp/mcp-shell';
import type { Logger } from '../../../../native-host/log/logger';

const CARD = '5500 0000 0000 0004';
const session: McpSessionRef = { id: 'mcp-1', client: { name: 'claude-code', version: '1' }, kind: 'mcp' };

/** A browser link whose extension redacts the user's card number, as the real one does with the saved personal data. */
function fakeLink(options: { redact?: 'works' | 'gone' } = {}): BrowserLink & { calls: { method: string; params: unknown }[]; events: { event: string; data: unknown }[] } {
  const calls: { method: string; params: unknown }[] = [];
  const events: { event: string; data: unknown }[] = [];
  return {
    calls,
    events,
    call: ((method: string, params: unknown) => {
      calls.push({ method, params });
      if (method === 'mcp.status') return Promise.resolve({ enabled: true, mode: 'act', shell: true, desktop: false });
      if (method === 'mcp.redact') {
        if (options.redact === 'gone') return Promise.reject(new AppError('disconnected', 'The host disconnected'));
        const parsed = McpRedactParams.parse(params);
        return Promise.resolve({ texts: parsed.texts.map((text) => text.split(CARD).join('{{card_number}}')) });
      }
      return Promise.resolve({});
    }) as BrowserLink['call'],
    emit: (event, data) => void events.push({ event, data }),
  };
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, child: () => silent } as unknown as Logger;

/** A shell whose command printed the user's card number. */
function printingShell(output: string): McpShell {
  return {
    call: (name, args, callId): Promise<CallRecord> =>
      Promise.resolve({ id: callId, name, arguments: JSON.stringify(args), status: 'finished', classes: ['act'], stepText: `Ran \`echo ${CARD}\``, result: { ok: true, content: output } }),
    close: () => Promise.resolve(),
  };
}

async function shellRun(link: BrowserLink, shell: McpShell): Promise<{ text: string; isError: boolean }> {
  const broker = new McpBroker({ link, hostVersion: 'test', log: silent, now: () => 1, shell: () => shell });
  const opened = broker.open({ token: 't', client: { name: 'claude-code', version: '1' }, kind: 'mcp' }, undefined);
  const result = await opened.call({ callId: 'c1', name: 'shell_run', arguments: { command: `echo ${CARD}` } }, new AbortController().signal);
  return { text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'), isError: result.isError };
}

describe('the host-request types for personal data', () => {
  it('are methods of the host-request channel, and check what they carry', () => {
    expect(Object.keys(HostRequestChannel.methods)).toEqual(expect.arrayContaining(['mcp.redact', 'mcp.reveal']));
    expect(McpRedactParams.safeParse({ session, texts: ['a', 'b'] }).success).toBe(true);
    expect(McpRedactParams.safeParse({ session, texts: ['x'.repeat(MCP_REDACT_MAX_CHARS + 1)] }).success).toBe(false);
    const card = { session, callId: 'c1', tool: 'desktop_type', intent: 'Type {{card_number}}', reason: 'r', classes: ['act'], url: 'desktop:display', destination: 'the window "Editor"' };
    expect(McpRevealParams.safeParse({ ...card, names: ['card_number'] }).success).toBe(true);
    expect(McpRevealParams.safeParse({ ...card, names: ['Card-Number'] }).success).toBe(false);
    expect(McpRevealParams.safeParse({ ...card, names: [] }).success).toBe(false);
    expect(McpRevealResult.parse({ approved: false })).toEqual({ approved: false, values: {} });
  });
});

describe('fitForRedaction', () => {
  it('leaves texts that fit alone, and cuts larger ones to the limit with a note of the cut', () => {
    expect(fitForRedaction(['short', 'text'], 100)).toEqual(['short', 'text']);
    const cut = fitForRedaction(['a'.repeat(300), 'b'.repeat(300)], 400);
    expect(cut.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(400);
    expect(cut[0]).toBe('a'.repeat(300));
    expect(cut[1]).toMatch(/^b+\n\[\.\.\. 300 characters in all; the rest was cut/);
    expect(McpRedactParams.safeParse({ session, texts: fitForRedaction(['x'.repeat(MCP_REDACT_MAX_CHARS), 'y'.repeat(5000)]) }).success).toBe(true);
  });
});

describe('redactForAgent', () => {
  it('has the extension redact every text part and the extra texts; images pass as they are', async () => {
    const link = fakeLink();
    const out = await redactForAgent(link, session, { isError: false, content: [{ type: 'text', text: `card ${CARD}` }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, [`Ran echo ${CARD}`]);
    expect(out.result.content).toEqual([{ type: 'text', text: 'card {{card_number}}' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
    expect(out.extra).toEqual(['Ran echo {{card_number}}']);
    expect(link.calls.map((call) => call.method)).toEqual(['mcp.redact']);
  });

  it('withholds the output when the browser cannot check it (fail closed)', async () => {
    const out = await redactForAgent(fakeLink({ redact: 'gone' }), session, { isError: false, content: [{ type: 'text', text: `card ${CARD}` }] }, [`Ran echo ${CARD}`]);
    expect(out.result.isError).toBe(true);
    const text = JSON.stringify(out);
    expect(text).not.toContain(CARD);
    expect(text).toContain('withheld');
    expect(text).toContain('host: connected');
  });
});

describe('McpBroker: shell output for an agent', () => {
  it('goes back with the user\'s personal data as placeholders, in the result and in the panel\'s log', async () => {
    const link = fakeLink();
    const result = await shellRun(link, printingShell(`${CARD}\n(exit code 0)`));
    expect(result.isError).toBe(false);
    expect(result.text).toContain('{{card_number}}');
    expect(result.text).not.toContain(CARD);
    const done = link.events.map((e) => e.data as McpActivity).filter((a) => a.state === 'done');
    expect(done).toHaveLength(1);
    expect(JSON.stringify(done)).not.toContain(CARD);
    expect(done[0]?.text).toContain('{{card_number}}');
  });

  it('is withheld, not sent unchecked, when the extension cannot redact it', async () => {
    const link = fakeLink({ redact: 'gone' });
    const result = await shellRun(link, printingShell(`${CARD}\n(exit code 0)`));
    expect(result.isError).toBe(true);
    expect(result.text).toContain('withheld');
    expect(result.text).not.toContain(CARD);
    expect(JSON.stringify(link.events)).not.toContain(CARD);
  });

  it('redacts an error too (a failing step can quote what it read)', async () => {
    const link = fakeLink();
    const failing: McpShell = { call: () => Promise.reject(new Error(`grep: ${CARD}: No such file`)), close: () => Promise.resolve() };
    const result = await shellRun(link, failing);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('grep: {{card_number}}: No such file');
  });
});

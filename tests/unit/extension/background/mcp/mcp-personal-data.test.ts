import { describe, expect, it } from 'vitest';
import { McpApprovalQueue } from '../../../../../extension/background/mcp/mcp-approval-queue';
import { McpPageCalls, type McpPageDeps } from '../../../../../extension/background/mcp/mcp-page-calls';
import { DEFAULT_SETTINGS, MCP_DISABLED_MESSAGE, type McpRevealParams, type McpSessionRef, type Settings } from '../../../../../shared/protocol';

const CARD = '5500 0000 0000 0004';
const session: McpSessionRef = { id: 'mcp-1', client: { name: 'claude-code', version: '1' }, kind: 'mcp' };

function pageCalls(mcpEnabled = true): { calls: McpPageCalls; approvals: McpApprovalQueue } {
  const settings: Settings = { ...DEFAULT_SETTINGS, mcp: { ...DEFAULT_SETTINGS.mcp, enabled: mcpEnabled }, personalData: { card_number: CARD, passport_number: 'X1234567' } };
  let id = 0;
  const approvals = new McpApprovalQueue({ newId: () => `a${++id}`, now: () => 1, changed: () => undefined });
  // Redaction and the values behind placeholders need no tab, debugger or log.
  const unused = (): never => {
    throw new Error('not used here');
  };
  const deps = { settings: { get: () => Promise.resolve(settings) }, environment: unused, release: unused, openTab: unused, tabExists: unused, screenshot: unused, log: {}, approvals, now: () => 1 } as unknown as McpPageDeps;
  return { calls: new McpPageCalls(deps), approvals };
}

const revealParams = (names: string[]): McpRevealParams => ({
  session,
  callId: 'c1',
  tool: 'desktop_type',
  intent: 'Type "{{card_number}}"',
  reason: 'claude-code types your personal data ({{card_number}}) into the window "Editor"',
  classes: ['act'],
  url: 'desktop:display',
  names,
  destination: 'the window "Editor"',
});

describe('the extension answers the host about an agent\'s personal data', () => {
  it('redacts host-side text with the user\'s saved values, the same placeholders its pages get', async () => {
    const { calls } = pageCalls();
    const { texts } = await calls.redact({ session, texts: [`${CARD}\n(exit code 0)`, 'passport X1234567, card 4111 1111 1111 1111'] });
    expect(texts[0]).toBe('{{card_number}}\n(exit code 0)');
    expect(texts[1]).toContain('{{passport_number}}');
    expect(texts[1]).not.toContain('4111 1111 1111 1111');
    expect(texts.join('\n')).not.toContain(CARD);
  });

  it('gives the values behind placeholders only after the user approves the card', async () => {
    const { calls, approvals } = pageCalls();
    const answer = calls.reveal(revealParams(['card_number']));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const pending = approvals.list();
    expect(pending).toHaveLength(1);
    expect(pending[0]?.reason).toContain('the window "Editor"');
    expect(JSON.stringify(pending)).not.toContain(CARD);
    approvals.answer(pending[0]?.id ?? '', 'approve');
    expect(await answer).toEqual({ approved: true, values: { card_number: CARD } });
  });

  it('gives nothing when the user refuses, for names it does not hold, or while MCP is off', async () => {
    const { calls, approvals } = pageCalls();
    const refused = calls.reveal(revealParams(['card_number']));
    await new Promise((resolve) => setTimeout(resolve, 0));
    approvals.answer(approvals.list()[0]?.id ?? '', 'reject', 'no');
    expect(await refused).toMatchObject({ approved: false, values: {} });

    const unknown = await calls.reveal(revealParams(['bank_pin']));
    expect(unknown.approved).toBe(false);
    expect(unknown.note).toContain('no personal data named {{bank_pin}}');
    expect(unknown.note).toContain('{{card_number}}');
    expect(approvals.size).toBe(0);

    const off = await pageCalls(false).calls.reveal(revealParams(['card_number']));
    expect(off).toEqual({ approved: false, note: MCP_DISABLED_MESSAGE, values: {} });
  });
});

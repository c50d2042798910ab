import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../shared/agent/approval';
import type { DesktopActResult } from '../../../../shared/protocol';
import type { DesktopControl } from '../../../../native-host/desktop/agent/desktop-environment';
import type { RevealAnswer } from '../../../../native-host/mcp/mcp-approvals';
import { createMcpDesktop, type McpDesktopCallOptions } from '../../../../native-host/mcp/mcp-desktop';

const CARD = '5500 0000 0000 0004';

/** A desktop that records what it was asked to do; its focused window's title is whatever `focus` says now. */
function fakeDesktop(): { control: DesktopControl; acts: Parameters<DesktopControl['act']>[0][] } {
  const acts: Parameters<DesktopControl['act']>[0][] = [];
  return {
    acts,
    control: {
      screenshot: () => Promise.reject(new Error('not used')),
      act: (params): Promise<DesktopActResult> => {
        acts.push(params);
        return Promise.resolve({ performed: true, description: 'Typed the text', typedBy: 'keys', ms: 1 });
      },
    },
  };
}

function options(reveal: (request: ApprovalRequest, names: string[], destination: string) => Promise<RevealAnswer>): McpDesktopCallOptions & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    mode: 'act',
    clientName: 'claude-code',
    approve: (request) => {
      asked.push(request);
      return Promise.resolve({ approved: true });
    },
    reveal: (request, names, destination) => reveal(request, names, destination),
  };
}

describe('desktop_type with {{placeholders}} for a connected agent', () => {
  it('asks the user (naming the values and the window, even in act mode) and types the real value only after they approve', async () => {
    const { control, acts } = fakeDesktop();
    const desktop = createMcpDesktop(control, () => 1, () => Promise.resolve('Notes — Editor'));
    const reveals: { request: ApprovalRequest; names: string[]; destination: string }[] = [];
    const call = await desktop.call('type', { text: 'Card: {{card_number}}' }, 'c1', options((request, names, destination) => {
      reveals.push({ request, names, destination });
      return Promise.resolve({ approved: true, values: { card_number: CARD } });
    }));
    expect(reveals).toHaveLength(1);
    expect(reveals[0]?.names).toEqual(['card_number']);
    expect(reveals[0]?.destination).toBe('the window "Notes — Editor"');
    expect(reveals[0]?.request.reason).toContain('claude-code types your personal data ({{card_number}}) into the window "Notes — Editor"');
    expect(JSON.stringify(reveals)).not.toContain(CARD);
    expect(acts).toHaveLength(1);
    expect(acts[0]?.action).toEqual({ kind: 'type', text: `Card: ${CARD}` });
    expect(acts[0]?.approvedSensitive).toBe(true);
    expect(call.status).not.toBe('denied');
    expect(call.result?.ok).toBe(true);
    expect(JSON.stringify(call)).not.toContain(CARD);
  });

  it('types nothing when the user says no, and says why', async () => {
    const { control, acts } = fakeDesktop();
    const desktop = createMcpDesktop(control, () => 1, () => Promise.resolve('Editor'));
    const call = await desktop.call('type', { text: '{{card_number}}' }, 'c2', options(() => Promise.resolve({ approved: false, note: 'not there', values: {} })));
    expect(acts).toHaveLength(0);
    expect(call.status).toBe('denied');
    expect(call.result?.content).toContain('did not approve');
    expect(call.result?.content).toContain('not there');
  });

  it('types nothing when the focus moved to another window after the user approved', async () => {
    const { control, acts } = fakeDesktop();
    const titles = ['Editor', 'Terminal'];
    const desktop = createMcpDesktop(control, () => 1, () => Promise.resolve(titles.shift() ?? 'Terminal'));
    const call = await desktop.call('type', { text: '{{card_number}}' }, 'c3', options(() => Promise.resolve({ approved: true, values: { card_number: CARD } })));
    expect(acts).toHaveLength(0);
    expect(call.result?.ok).toBe(false);
    expect(call.result?.content).toContain('the focus is now on the window "Terminal"');
  });

  it('text without placeholders is typed as before, without asking for values', async () => {
    const { control, acts } = fakeDesktop();
    const desktop = createMcpDesktop(control, () => 1, () => Promise.resolve('Editor'));
    const opts = options(() => Promise.reject(new Error('must not be asked')));
    const call = await desktop.call('type', { text: 'hello' }, 'c4', opts);
    expect(call.result?.ok).toBe(true);
    expect(acts[0]?.action).toEqual({ kind: 'type', text: 'hello' });
    expect(acts[0]?.approvedSensitive).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { ObservedDialog, ObservedDownload } from '../../../../shared/agent/environment';
import { PolicyConfig, gateToolCall } from '../../../../shared/agent/policy-gate';
import { createSecretVault } from '../../../../shared/agent/secret-vault';
import type { AnyTool } from '../../../../shared/agent/tool';
import { webTools } from '../../../../shared/agent/web-tools';

const tool = (name: string): AnyTool<never> => {
  const found = (webTools as AnyTool<never>[]).find((t) => t.name === name);
  if (!found) throw new Error(name);
  return found;
};

function gate(name: string, args: Record<string, unknown>, facts: { dialog?: ObservedDialog; downloads?: ObservedDownload[] }) {
  return gateToolCall({
    tool: tool(name),
    args,
    page: { url: 'https://shop.example/account', element: () => undefined, ...facts },
    vault: createSecretVault({ entries: { card_number: '4111111111111111' } }),
    plan: null,
    config: PolicyConfig.parse({ mode: 'act' }),
    startUrl: 'https://shop.example/',
  });
}

const confirm = (message: string, causedBy?: ObservedDialog['causedBy']): ObservedDialog => ({
  type: 'confirm',
  message,
  defaultPrompt: '',
  url: 'https://shop.example/account',
  ...(causedBy ? { causedBy } : {}),
});

const download = (name: string, executable: boolean): ObservedDownload => ({ id: 'd1', name, mime: '', state: executable ? 'held' : 'complete', executable, url: `https://shop.example/${name}` });

describe('the gate on dialogs and downloads', () => {
  it('judges accepting a dialog as it would the action that opened it', () => {
    const pay = gate('dialog', { action: 'accept' }, { dialog: confirm('Are you sure you want to pay $499?', { ref: 4, role: 'button', name: 'Continue' }) });
    expect(pay.decision).toBe('ask');
    expect(pay.classes).toContain('money');
    expect(pay.reason).toContain('it looks like it spends money ("Are you sure you want to pay $499?")');
    // The question alone may be bland: the element that opened it still counts.
    const remove = gate('dialog', { action: 'accept' }, { dialog: confirm('Are you sure?', { ref: 7, role: 'button', name: 'Delete my account' }) });
    expect(remove.decision).toBe('ask');
    expect(remove.classes).toEqual(expect.arrayContaining(['account', 'irreversible']));
    expect(gate('dialog', { action: 'accept' }, { dialog: confirm('Show the newsletter?') }).decision).toBe('allow');
  });

  it('lets the model dismiss any dialog, and classes accepting a "leave this page?" as leaving it', () => {
    expect(gate('dialog', { action: 'dismiss' }, { dialog: confirm('Are you sure you want to pay $499?') }).decision).toBe('allow');
    const leave = gate('dialog', { action: 'accept' }, { dialog: { type: 'beforeunload', message: '', defaultPrompt: '', url: 'https://shop.example/account' } });
    expect(leave.classes).toContain('navigate');
    expect(leave.reasons).toContain('it leaves the page, which warns that changes may not be saved');
  });

  it('checks a prompt\'s answer for personal data like anything else typed', () => {
    const answer = gate('dialog', { action: 'accept', text: '{{card_number}}' }, { dialog: { ...confirm('Card for the refund?'), type: 'prompt' } });
    expect(answer.decision).toBe('ask');
    expect(answer.personalData).toBe(true);
  });

  it('asks before keeping a program, and lets a document be kept or anything be discarded', () => {
    const program = gate('download', { id: 'd1', action: 'keep' }, { downloads: [download('setup.exe', true)] });
    expect(program.decision).toBe('ask');
    expect(program.classes).toEqual(['act', 'program']);
    expect(program.reason).toBe('Needs your approval because it keeps a program (setup.exe) on this computer.');
    expect(gate('download', { id: 'd1', action: 'discard' }, { downloads: [download('setup.exe', true)] }).decision).toBe('allow');
    expect(gate('download', { id: 'd1', action: 'keep' }, { downloads: [download('report.pdf', false)] }).decision).toBe('allow');
  });
});

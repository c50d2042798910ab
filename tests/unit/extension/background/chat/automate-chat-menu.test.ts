import { describe, expect, it, vi } from 'vitest';
import { AUTOMATE_CHAT_MENU, handleAutomateChatClick, type AutomateChatDeps } from '../../../../../extension/background/chat/automate-chat-menu';
import type { Launch } from '../../../../../shared/protocol';
import type { MenuClick } from '../../../../../extension/platform/ui-surfaces';

function deps(overrides: Partial<AutomateChatDeps> = {}) {
  const calls: string[] = [];
  const saved: Launch[] = [];
  const announced: Launch[] = [];
  const base: AutomateChatDeps = {
    hasSidePanel: () => true,
    openSidePanel: (target) => {
      calls.push(`open-panel:${target.tabId}`);
      return Promise.resolve();
    },
    openPanelInTab: (tabId) => {
      calls.push(`open-tab:${tabId}`);
      return Promise.resolve();
    },
    saveLaunch: (launch) => {
      calls.push('save');
      saved.push(launch);
      return Promise.resolve();
    },
    announce: (launch) => {
      announced.push(launch);
    },
    now: () => 1000,
    log: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
  };
  return { deps: { ...base, ...overrides }, calls, saved, announced };
}

const click: MenuClick = {
  menuItemId: AUTOMATE_CHAT_MENU.id,
  frameId: 3,
  pageUrl: 'https://shop.example/help',
  frameUrl: 'https://widget.example/frame',
  selectionText: 'order 1234',
};

describe('"Automate this chat"', () => {
  it('is offered on pages, frames and selections', () => {
    expect(AUTOMATE_CHAT_MENU.title).toBe('Automate this chat');
    expect(AUTOMATE_CHAT_MENU.contexts).toEqual(['page', 'frame', 'selection']);
  });

  it('opens the side panel first, inside the click, then records the chat flow for that tab', async () => {
    const { deps: d, calls, saved, announced } = deps();
    const launch = await handleAutomateChatClick(d, click, { id: 42 });
    // The panel must open before anything is awaited, or Chrome no longer sees a user gesture.
    expect(calls[0]).toBe('open-panel:42');
    expect(saved).toEqual([
      { tabId: 42, flow: 'chat', frameId: 3, pageUrl: 'https://shop.example/help', selectionText: 'order 1234', at: 1000 },
    ]);
    expect(announced).toEqual(saved);
    expect(launch).toEqual(saved[0]);
  });

  it('falls back to the panel page in a tab when the side panel refuses to open', async () => {
    const { deps: d, calls } = deps({ openSidePanel: () => Promise.reject(new Error('needs a user gesture')) });
    await handleAutomateChatClick(d, click, { id: 7 });
    expect(calls).toContain('open-tab:7');
  });

  it('uses the panel page in a tab where the browser has no side panel', async () => {
    const { deps: d, calls } = deps({ hasSidePanel: () => false });
    await handleAutomateChatClick(d, click, { id: 9 });
    expect(calls[0]).toBe('open-tab:9');
    expect(calls).not.toContain('open-panel:9');
  });

  it('ignores other menu items and clicks without a tab', async () => {
    const { deps: d, calls } = deps();
    expect(await handleAutomateChatClick(d, { ...click, menuItemId: 'other' }, { id: 1 })).toBeUndefined();
    expect(await handleAutomateChatClick(d, click, undefined)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createChatCaseEnvironment } from '../../../../../extension/background/chat/chat-case-environment';
import type { ChatDriver } from '../../../../../extension/background/chat/chat-driver';
import type { TabEnvironment } from '../../../../../extension/background/page/tab-environment';
import type { EgressScope } from '../../../../../shared/agent/egress';

describe('a support-chat case', () => {
  it("guards its page tools like any task's: the gate's facts, the egress scope and held requests go to the tab", async () => {
    const scopes: EgressScope[] = [];
    const tab = {
      currentTabId: () => 5,
      restoreRefs: () => 0,
      observe: () => Promise.reject(new Error('not used')),
      act: () => Promise.resolve({ ok: true, message: 'ok', changed: false }),
      gateFacts: () => Promise.resolve({ effect: undefined }),
      setEgressScope: (scope: EgressScope) => {
        scopes.push(scope);
        return Promise.resolve();
      },
      resolveBlocked: () => Promise.resolve({ ok: true, message: 'put back', changed: true }),
    } satisfies TabEnvironment;
    const chat = createChatCaseEnvironment({} as Pick<ChatDriver, 'open' | 'read' | 'send' | 'wait' | 'choose' | 'end'>, tab);
    await chat.setEgressScope?.({ origins: ['https://shop.example'], patterns: [] });
    expect(scopes).toEqual([{ origins: ['https://shop.example'], patterns: [] }]);
    expect(await chat.gateFacts?.({ tool: 'click', args: { ref: 1 } }, {})).toEqual({ effect: undefined });
    const held = { id: 'r', address: 'https://evil.example/c', origin: 'https://evil.example', withQuery: false, method: 'GET', type: 'main_frame' as const, fields: [], tabId: 5, newTab: false };
    expect((await chat.resolveBlocked?.(held, false, {}))?.message).toBe('put back');
  });
});

import { describe, expect, it } from 'vitest';
import { DebuggerSessions, describePath } from '../../../../../extension/background/input/debugger-session';
import { InputRelay } from '../../../../../extension/background/input/input-relay';
import { memoryStore } from '../support/memory-store';
import { fakeDebugger } from '../support/fake-debugger';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function sessions(fake = fakeDebugger(), store = memoryStore(), enabled = true) {
  return new DebuggerSessions({ ports: fake.ports, enabled: () => Promise.resolve(enabled), store, log });
}

describe('DebuggerSessions', () => {
  it('attaches once per task and tab, turns on dialogs, file pickers and focus, and detaches when the task ends', async () => {
    const fake = fakeDebugger();
    const held = sessions(fake);
    expect(await held.acquire('task-1', 7)).toEqual({ trusted: true });
    expect(await held.acquire('task-1', 7)).toEqual({ trusted: true });
    expect(fake.commands.map((c) => c.method)).toEqual(['Page.enable', 'Page.setInterceptFileChooserDialog', 'Emulation.setFocusEmulationEnabled']);
    expect(held.ownerOf(7)).toBe('task-1');
    expect(await held.acquire('task-2', 7)).toEqual({ trusted: false, reason: 'another Deputy task holds the debugger of this tab' });
    await held.release('task-1');
    expect(fake.attached.has(7)).toBe(false);
    expect(held.isAttached(7)).toBe(false);
  });

  it('says why input will be synthetic: another debugger, a page the browser keeps from extensions, or the setting', async () => {
    const other = fakeDebugger({ refuse: () => 'Another debugger is already attached to the tab with id: 3.' });
    const path = await sessions(other).acquire('t', 3);
    expect(path).toEqual({ trusted: false, reason: 'another debugger is attached to this tab (DevTools or another extension)' });
    expect(describePath(path)).toBe('synthetic events: another debugger is attached to this tab (DevTools or another extension)');
    const store = fakeDebugger({ refuse: () => 'Cannot access a chrome:// URL' });
    expect(await sessions(store).acquire('t', 3)).toEqual({ trusted: false, reason: 'the browser does not let extensions debug this page (Cannot access a chrome:// URL)' });
    expect(await sessions(fakeDebugger(), memoryStore(), false).acquire('t', 3)).toEqual({ trusted: false, reason: 'trusted input is turned off in Settings' });
    expect(await new DebuggerSessions({ ports: null, enabled: () => Promise.resolve(true), store: memoryStore(), log }).acquire('t', 3)).toEqual({
      trusted: false,
      reason: 'this browser does not offer the debugger to extensions',
    });
  });

  it('never attaches again for a task whose user cancelled the debugging bar', async () => {
    const fake = fakeDebugger();
    const held = sessions(fake);
    await held.acquire('task-1', 7);
    fake.detach(7, 'canceled_by_user');
    expect(await held.acquire('task-1', 7)).toEqual({ trusted: false, reason: expect.stringContaining('you cancelled the browser\'s "started debugging" bar') as string });
    expect(fake.attached.has(7)).toBe(false);
    // Another task may ask again.
    expect(await held.acquire('task-2', 7)).toEqual({ trusted: true });
  });

  it('adopts the attachment an earlier worker made for a task that goes on, and lets go of one whose task ended', async () => {
    const fake = fakeDebugger();
    const store = memoryStore();
    const first = sessions(fake, store);
    await first.acquire('running', 1);
    await first.acquire('ended', 2);
    // The worker stops; the browser keeps both attachments. A new worker starts on the same storage.
    const second = sessions(fake, store);
    expect(await second.sweep((owner) => Promise.resolve(owner === 'running'))).toBe(1);
    expect(fake.attached.has(2)).toBe(false);
    expect(fake.attached.has(1)).toBe(true);
    const before = fake.commands.length;
    expect(await second.acquire('running', 1)).toEqual({ trusted: true });
    // Adopted as it is: one question the browser answers itself, nothing turned on again.
    expect(fake.commands.slice(before).map((c) => c.method)).toEqual(['Page.getNavigationHistory']);
    await second.release('running');
    expect(fake.attached.size).toBe(0);
  });
});

describe('InputRelay', () => {
  it('sends input only for a live lease of that tab and frame, placed within the tab', async () => {
    const fake = fakeDebugger();
    const held = sessions(fake);
    const relay = new InputRelay({
      sessions: held,
      placeFrame: () => Promise.resolve({ x: 100, y: 50 }),
      sleep: () => Promise.resolve(),
      newId: () => 'lease-0001',
      mac: false,
    });
    const request = (lease: string, frameKey?: string) => ({ kind: 'request', id: 'r1', method: 'input', params: { lease, ...(frameKey ? { frameKey } : {}), input: { op: 'click', at: { x: 10, y: 20 }, count: 1 } } });
    expect(relay.lease(5, 0)).toBeUndefined();
    await held.acquire('task', 5);
    const lease = relay.lease(5, 3);
    expect(lease).toBe('lease-0001');
    expect(await relay.handle(request('lease-0001', 'k1'), { tabId: 6, frameId: 3 })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await relay.handle(request('lease-0001', 'k1'), { tabId: 5, frameId: 0 })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await relay.handle(request('lease-0001', 'k1'), { tabId: 5, frameId: 3 })).toMatchObject({ ok: true, result: { trusted: true } });
    const clicks = fake.commands.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => [c.params?.type, c.params?.x, c.params?.y]);
    expect(clicks).toEqual([
      ['mouseMoved', 110, 70],
      ['mousePressed', 110, 70],
      ['mouseReleased', 110, 70],
    ]);
    relay.revoke(lease);
    expect(await relay.handle(request('lease-0001'), { tabId: 5, frameId: 3 })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'no action of Deputy is under way in this frame' } });
  });

  it('keeps how a lease typed its text, for a verdict whose frame went away with its report', async () => {
    const fake = fakeDebugger();
    const held = sessions(fake);
    const relay = new InputRelay({ sessions: held, placeFrame: () => Promise.resolve({ x: 0, y: 0 }), sleep: () => Promise.resolve(), newId: () => 'lease-typed', mac: false });
    await held.acquire('task', 5);
    const lease = relay.lease(5, 0);
    const typed = (await relay.handle({ kind: 'request', id: 'r2', method: 'input', params: { lease, input: { op: 'type', text: 'kettle' } } }, { tabId: 5, frameId: 0 })) as {
      result?: { typing?: string };
    };
    expect(typed.result?.typing).toMatch(/^(as one inserted text|key by key)/);
    expect(relay.revoke(lease)).toEqual({ typing: typed.result?.typing });
    expect(relay.revoke(lease)).toEqual({});
    expect(relay.revoke(undefined)).toEqual({});
  });
});

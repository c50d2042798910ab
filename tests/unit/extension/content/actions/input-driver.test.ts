import { describe, expect, it, vi } from 'vitest';
import { createInputDriver } from '../../../../../extension/content/actions/input-driver';

// A window and an element in it, as far as the driver looks at them (no frames between them).
const win = {} as Window;
const button = { ownerDocument: { defaultView: win } } as unknown as Element;

function driverWith(ask: (message: unknown) => Promise<unknown>) {
  return createInputDriver({ lease: 'lease-1' }, { win, frameKey: undefined, ask, randomId: () => 'r1' });
}

describe('createInputDriver', () => {
  it('sends input through the background and says it was trusted', async () => {
    const ask = vi.fn((message: unknown) => Promise.resolve({ kind: 'response', id: (message as { id: string }).id, ok: true, result: { trusted: true } }));
    const driver = driverWith(ask);
    expect(await driver.typeText('hello')).toBe(true);
    expect(driver.path()).toBe('trusted input');
    expect(ask.mock.calls[0]?.[0]).toMatchObject({ method: 'input', params: { lease: 'lease-1', input: { op: 'type', text: 'hello' } } });
  });

  it('falls back to synthetic events, with the reason, when the background certainly sent nothing', async () => {
    const driver = driverWith(() => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')));
    expect(await driver.typeText('hello')).toBe(false);
    expect(driver.trusted()).toBe(false);
    expect(driver.path()).toMatch(/^synthetic events: the background could not be reached \(.*Receiving end does not exist/);
  });

  it('never sends again input the background may have delivered before it stopped (a click would happen twice)', async () => {
    const ask = vi.fn(() => Promise.reject(new Error('The message port closed before a response was received.')));
    const driver = driverWith(ask);
    await expect(driver.click(button, { x: 5, y: 5 }, 1)).rejects.toThrow(/^The input may have reached the page: the background stopped before confirming it .*so it was not sent again/);
    expect(ask).toHaveBeenCalledTimes(1);
    // Had it fallen back, the synthetic click would have dispatched events on the element (and failed here, with no DOM).
    expect(driver.path()).toBe('trusted input');
  });

  it('says why when the background refuses the input', async () => {
    const driver = driverWith((message) => Promise.resolve({ kind: 'response', id: (message as { id: string }).id, ok: true, result: { trusted: false, reason: 'the user cancelled the debugging bar' } }));
    expect(await driver.typeText('x')).toBe(false);
    expect(driver.path()).toBe('synthetic events: the user cancelled the debugging bar');
  });

  it('never sends again input the debugger failed on halfway (the press may have reached the page), but falls back when it was refused outright', async () => {
    const failing = vi.fn((message: unknown) => Promise.resolve({ kind: 'response', id: (message as { id: string }).id, ok: false, error: { code: 'unavailable', message: 'Input.dispatchMouseEvent timed out' } }));
    const halfway = driverWith(failing);
    await expect(halfway.click(button, { x: 5, y: 5 }, 1)).rejects.toThrow(/^The input may have reached the page: .*Input\.dispatchMouseEvent timed out/);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(halfway.path()).toBe('trusted input');

    const refused = driverWith((message) => Promise.resolve({ kind: 'response', id: (message as { id: string }).id, ok: false, error: { code: 'forbidden', message: 'no action of Deputy is under way in this frame' } }));
    expect(await refused.typeText('x')).toBe(false);
    expect(refused.path()).toBe('synthetic events: no action of Deputy is under way in this frame');
  });
});

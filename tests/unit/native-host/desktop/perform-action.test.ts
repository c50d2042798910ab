import { describe, expect, it } from 'vitest';
import { abortableSleep } from '../../../../native-host/desktop/abortable-sleep';
import { DesktopPolicy } from '../../../../native-host/desktop/desktop-policy';
import { parseKeyChord } from '../../../../native-host/desktop/key-chord';
import { performAction, type ActionDeps, type ActionRequest } from '../../../../native-host/desktop/perform-action';
import { DesktopAction, type DesktopActionInput } from '../../../../shared/protocol';
import { DISPLAY_0, fakeDriver, type FakeDriver } from './fake-driver';

const frame = { displayId: '0', width: 640, height: 400 };

function setup(driver: FakeDriver = fakeDriver()): { driver: FakeDriver; deps: ActionDeps } {
  return {
    driver,
    deps: {
      driver,
      policy: DesktopPolicy.parse({}),
      flagsSensitive: (text) => /4111 1111 1111 1111/.test(text),
      platform: 'linux',
      stopChord: parseKeyChord('ctrl+alt+shift+s'),
      sleep: () => Promise.resolve(),
      now: () => 0,
    },
  };
}

function request(action: DesktopActionInput, extra: Partial<ActionRequest> = {}): ActionRequest {
  return { action: DesktopAction.parse(action), display: DISPLAY_0, frame, dryRun: false, approvedSensitive: false, signal: new AbortController().signal, ...extra };
}

describe('performAction', () => {
  it('clicks at the screen point mapped from the screenshot', async () => {
    const { driver, deps } = setup();
    const result = await performAction(request({ kind: 'click', x: 100, y: 50 }), deps);
    expect(driver.calls).toEqual(['move 201,101', 'click left x1']);
    expect(result).toMatchObject({ performed: true, description: 'Clicked at (201, 101) on display 0', screenPoint: { x: 201, y: 101 } });
  });

  it('double and right clicks press the right button the right number of times', async () => {
    const { driver, deps } = setup();
    await performAction(request({ kind: 'double_click', x: 10, y: 10 }), deps);
    await performAction(request({ kind: 'right_click', x: 10, y: 10 }), deps);
    expect(driver.calls).toEqual(['move 21,21', 'click left x2', 'move 21,21', 'click right x1']);
  });

  it('drags with the button held through intermediate moves and released at the target', async () => {
    const { driver, deps } = setup();
    await performAction(request({ kind: 'drag', from: { x: 0, y: 0 }, to: { x: 120, y: 0 } }), deps);
    expect(driver.calls[0]).toBe('move 1,1');
    expect(driver.calls[1]).toBe('press left');
    expect(driver.calls.filter((c) => c.startsWith('move')).length).toBeGreaterThan(5);
    expect(driver.calls.at(-2)).toBe('move 241,1');
    expect(driver.calls.at(-1)).toBe('release left');
  });

  it('scrolls at the given point by the given notches', async () => {
    const { driver, deps } = setup();
    await performAction(request({ kind: 'scroll', x: 320, y: 200, direction: 'down', amount: 3 }), deps);
    expect(driver.calls).toEqual(['move 641,401', 'scroll down 3']);
  });

  it('types short ASCII key by key and pastes long or non-ASCII text, restoring the clipboard', async () => {
    const { driver, deps } = setup();
    const short = await performAction(request({ kind: 'type', text: 'hello' }), deps);
    expect(short.typedBy).toBe('keys');
    expect(driver.calls).toEqual(['type hello']);
    driver.calls.length = 0;
    const accented = await performAction(request({ kind: 'type', text: 'Grüße' }), deps);
    expect(accented).toMatchObject({ typedBy: 'paste', description: 'Pasted 5 characters' });
    expect(driver.calls).toEqual(['clipboard Grüße', 'chord LeftControl+V', 'clipboard user clipboard']);
    expect(driver.clipboard).toBe('user clipboard');
  });

  it('restores the clipboard even when pasting fails', async () => {
    const driver = fakeDriver();
    driver.pressChord = () => Promise.reject(new Error('X went away'));
    const { deps } = setup(driver);
    await expect(performAction(request({ kind: 'type', text: 'x'.repeat(100) }), deps)).rejects.toThrow('X went away');
    expect(driver.clipboard).toBe('user clipboard');
  });

  it('presses key chords, but never the stop hotkey', async () => {
    const { driver, deps } = setup();
    await performAction(request({ kind: 'key', keys: 'ctrl+shift+t' }), deps);
    expect(driver.calls).toEqual(['chord LeftControl+LeftShift+T']);
    await expect(performAction(request({ kind: 'key', keys: 'shift+ctrl+alt+s' }), deps)).rejects.toThrow(/stop hotkey/);
  });

  it('in a dry run describes the action and touches nothing', async () => {
    const { driver, deps } = setup();
    for (const action of [
      { kind: 'click', x: 10, y: 10 },
      { kind: 'drag', from: { x: 1, y: 1 }, to: { x: 5, y: 5 } },
      { kind: 'type', text: 'hello there' },
      { kind: 'key', keys: 'enter' },
    ] as const) {
      const result = await performAction(request(action, { dryRun: true }), deps);
      expect(result.performed).toBe(false);
      expect(result.description).toMatch(/^Dry run: would /);
    }
    expect(driver.calls).toEqual([]);
  });

  it('checks safety in dry runs too: blocked windows, blocked commands, personal data', async () => {
    const { driver, deps } = setup();
    await expect(performAction(request({ kind: 'type', text: 'sudo reboot' }, { dryRun: true }), deps)).rejects.toMatchObject({ code: 'policy_denied' });
    await expect(performAction(request({ kind: 'type', text: 'card 4111 1111 1111 1111' }), deps)).rejects.toThrow(/ask the user to approve/);
    driver.title = 'Settings';
    await expect(performAction(request({ kind: 'click', x: 1, y: 1 }), deps)).rejects.toThrow(/blocked list/);
    expect(driver.calls).toEqual([]);
  });

  it('reads the focused window only for actions that send input: a pointer move or a wait does not need it', async () => {
    const { driver, deps } = setup();
    let reads = 0;
    const counted = { ...deps, driver: { ...driver, activeWindowTitle: () => ((reads += 1), Promise.resolve('Settings')) } };
    await performAction(request({ kind: 'move', x: 1, y: 1 }), counted);
    await performAction(request({ kind: 'wait', seconds: 0 }), counted);
    expect(reads).toBe(0);
    for (const action of [{ kind: 'click', x: 1, y: 1 }, { kind: 'scroll', x: 1, y: 1, direction: 'down', amount: 1 }, { kind: 'key', keys: 'enter' }, { kind: 'type', text: 'a' }] as const) {
      await expect(performAction(request(action), counted)).rejects.toThrow(/blocked list/);
    }
    expect(reads).toBe(4);
  });

  it('types flagged text once the user approved it', async () => {
    const { driver, deps } = setup();
    await performAction(request({ kind: 'type', text: 'card 4111 1111 1111 1111' }, { approvedSensitive: true }), deps);
    expect(driver.calls.map((call) => call.replace(/^type /, '')).join('')).toBe('card 4111 1111 1111 1111');
  });

  it('needs the screenshot frame for actions with coordinates', async () => {
    const { deps } = setup();
    await expect(performAction(request({ kind: 'click', x: 1, y: 1 }, { frame: undefined }), deps)).rejects.toThrow(/take a screenshot first/);
  });

  it('stops typing mid-text when the signal aborts', async () => {
    const controller = new AbortController();
    const driver = fakeDriver({
      onType: () => {
        controller.abort();
        return Promise.resolve();
      },
    });
    const { deps } = setup(driver);
    await expect(performAction(request({ kind: 'type', text: 'abcdefghijklmnopqrstuvwxyz' }, { signal: controller.signal }), deps)).rejects.toThrow();
    expect(driver.calls).toEqual(['type abcdefgh']);
  });

  it('waits for the given time and can be cut short', async () => {
    const { deps } = setup();
    const controller = new AbortController();
    const waiting = performAction(request({ kind: 'wait', seconds: 30 }, { signal: controller.signal }), { ...deps, sleep: abortableSleep });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
  });
});

import { describe, expect, it } from 'vitest';
import { desktopStepText } from '../../../../extension/ui/desktop-progress';
import { nextDesktopRun } from '../../../../extension/ui/use-desktop-run';
import { availabilityOf } from '../../../../extension/ui/use-desktop-status';
import { newDesktopRun } from '../../../../extension/background/host/desktop-run-log';

const connected = { state: 'connected' as const, hostVersion: '0.1.0', updatedAt: 1 };

describe('desktop availability line', () => {
  it('names the display and the stop hotkey when the host can drive the screen', () => {
    const line = availabilityOf(connected, {
      status: {
        available: true,
        platform: 'linux',
        displays: [{ id: '0', name: 'Xvfb', x: 0, y: 0, width: 1280, height: 800, scaleFactor: 1, primary: true }],
        stopHotkey: 'Ctrl+Alt+Shift+S',
        stopHotkeyActive: true,
      },
    });
    expect(line).toMatchObject({ state: 'available', text: 'Desktop ready: display 1280x800 · Ctrl+Alt+Shift+S stops a task' });
  });

  it('gives the host\'s reason when the desktop is unavailable, and the install command when the host is missing', () => {
    expect(availabilityOf(connected, { status: { available: false, reason: 'No X display: DISPLAY is not set.' } })).toEqual({
      state: 'unavailable',
      text: 'Desktop control is unavailable: No X display: DISPLAY is not set.',
    });
    expect(availabilityOf({ state: 'not_installed', updatedAt: 1 }, undefined).text).toContain('npm run host:install');
    expect(availabilityOf(connected, { error: 'The host is not connected' }).state).toBe('unavailable');
    expect(availabilityOf({ state: 'connecting', updatedAt: 1 }, undefined).state).toBe('checking');
  });
});

describe('desktop steps and runs in the panel', () => {
  it('writes each action with its arguments on one short line', () => {
    expect(desktopStepText({ action: 'click', arguments: '{"x":320.4,"y":199.6}' })).toBe('click (320, 200)');
    expect(desktopStepText({ action: 'type', arguments: '{"text":"hello"}' })).toBe('type "hello"');
    expect(desktopStepText({ action: 'press', arguments: '{"key":"ctrl+s"}' })).toBe('press ctrl+s');
    expect(desktopStepText({ action: 'update_plan', arguments: '{"explanation":"x","steps":[{"step":"a"}]}' })).toBe('update_plan: 1 step');
    expect(desktopStepText({ action: 'done', arguments: '{"success":true,"summary":"Clicked."}' })).toBe('done: Clicked.');
    expect(desktopStepText({ action: 'click', arguments: 'not json' })).toBe('click not json');
  });

  it('shows the newest version of a run and a later run, never an older one', () => {
    const shown = { ...newDesktopRun('a', 100), updatedAt: 200 };
    expect(nextDesktopRun(shown, { ...shown, updatedAt: 300, status: 'completed' }).status).toBe('completed');
    expect(nextDesktopRun(shown, { ...shown, updatedAt: 150 })).toBe(shown);
    const later = newDesktopRun('b', 500);
    expect(nextDesktopRun(shown, later)).toBe(later);
    expect(nextDesktopRun(later, shown)).toBe(later);
  });
});

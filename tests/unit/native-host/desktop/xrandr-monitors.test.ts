import { describe, expect, it } from 'vitest';
import { parseXrandrMonitors } from '../../../../native-host/desktop/xrandr-monitors';
import { x11WindowTitle } from '../../../../native-host/desktop/x11-window-title';

describe('parseXrandrMonitors', () => {
  it('reads each monitor with its origin and marks the primary one', () => {
    const text = 'Monitors: 2\n 0: +*DP-1 2560/597x1440/336+0+0  DP-1\n 1: +HDMI-1 1920/527x1080/296+2560+180  HDMI-1\n';
    expect(parseXrandrMonitors(text)).toEqual([
      { name: 'DP-1', primary: true, width: 2560, height: 1440, x: 0, y: 0 },
      { name: 'HDMI-1', primary: false, width: 1920, height: 1080, x: 2560, y: 180 },
    ]);
  });

  it('gives no monitors for output it does not understand', () => {
    expect(parseXrandrMonitors('Can\'t open display')).toEqual([]);
  });
});

describe('x11WindowTitle', () => {
  it('asks xdotool first', async () => {
    expect(await x11WindowTitle((command) => Promise.resolve(command === 'xdotool' ? 'Terminal' : undefined))).toBe('Terminal');
  });

  it('falls back to xprop and the active window property', async () => {
    const title = await x11WindowTitle((command, args) => {
      if (command === 'xdotool') return Promise.resolve(undefined);
      if (args[0] === '-root') return Promise.resolve('_NET_ACTIVE_WINDOW(WINDOW): window id # 0x3a00007');
      return Promise.resolve(args[1] === '0x3a00007' ? '_NET_WM_NAME(UTF8_STRING) = "Settings"' : undefined);
    });
    expect(title).toBe('Settings');
  });

  it('is undefined when neither tool can tell', async () => {
    expect(await x11WindowTitle(() => Promise.resolve(undefined))).toBeUndefined();
  });
});

import type { DesktopDisplay } from '../../shared/protocol';
import type { DesktopDriver, MouseButton } from './desktop-driver';
import type { KeyName } from './key-chord';
import { type Monitor } from './xrandr-monitors';

export interface NutDriverOptions {
  /** Lists the monitors of the X screen (xrandr); absent or empty means one display covering the whole screen. */
  listMonitors?: () => Promise<Monitor[]>;
  /** Reads the focused window's title; nut-js's own lookup is used when absent (macOS, Windows). */
  windowTitle?: () => Promise<string | undefined>;
  /** Pause between key presses and mouse steps, so slow applications keep up. */
  keyDelayMs?: number;
}

/**
 * The desktop driver over nut-js. nut-js is loaded here, on first use, and only in the desktop worker process: loading
 * it opens the X display, and without one it kills the process with a segfault.
 */
export async function createNutDriver(options: NutDriverOptions = {}): Promise<DesktopDriver> {
  const nut = await import('@nut-tree-fork/nut-js');
  const { mouse, keyboard, screen, clipboard, getActiveWindow, Button, ColorMode, Key, Point, Region } = nut;
  keyboard.config.autoDelayMs = options.keyDelayMs ?? 2;
  mouse.config.autoDelayMs = 0;
  mouse.config.mouseSpeed = 4000;

  const buttons: Record<MouseButton, (typeof Button)[keyof typeof Button]> = {
    left: Button.LEFT,
    right: Button.RIGHT,
    middle: Button.MIDDLE,
  };
  const keyOf = (name: KeyName): (typeof Key)[keyof typeof Key] => Key[name];

  const displays = async (): Promise<DesktopDisplay[]> => {
    const width = await screen.width();
    const height = await screen.height();
    // A one-pixel grab reports the pixel density cheaply: 2 on Retina and 200% displays, 1 on X servers.
    const probe = await screen.grabRegion(new Region(0, 0, 1, 1));
    const scaleFactor = probe.pixelDensity.scaleX > 0 ? probe.pixelDensity.scaleX : 1;
    const monitors = (await options.listMonitors?.().catch(() => [])) ?? [];
    if (monitors.length === 0) {
      return [{ id: '0', name: 'screen', x: 0, y: 0, width, height, scaleFactor, primary: true }];
    }
    return monitors.map((monitor, index) => ({
      id: String(index),
      name: monitor.name,
      x: monitor.x,
      y: monitor.y,
      width: monitor.width,
      height: monitor.height,
      scaleFactor,
      primary: monitor.primary || (index === 0 && !monitors.some((m) => m.primary)),
    }));
  };

  return {
    displays,
    capture: async (display) => {
      const image = await screen.grabRegion(new Region(display.x, display.y, display.width, display.height));
      // X11, macOS and Windows all capture in BGR order; nut-js says so in colorMode.
      return { width: image.width, height: image.height, data: image.data, order: image.colorMode === ColorMode.BGR ? 'bgra' : 'rgba' };
    },
    movePointer: async (point) => {
      await mouse.setPosition(new Point(point.x, point.y));
    },
    click: async (button, count) => {
      await (count === 2 ? mouse.doubleClick(buttons[button]) : mouse.click(buttons[button]));
    },
    pressButton: async (button) => {
      await mouse.pressButton(buttons[button]);
    },
    releaseButton: async (button) => {
      await mouse.releaseButton(buttons[button]);
    },
    scroll: async (direction, amount) => {
      if (direction === 'up') await mouse.scrollUp(amount);
      else if (direction === 'down') await mouse.scrollDown(amount);
      else if (direction === 'left') await mouse.scrollLeft(amount);
      else await mouse.scrollRight(amount);
    },
    typeText: async (text) => {
      await keyboard.type(text);
    },
    pressChord: async (keys) => {
      const codes = keys.map(keyOf);
      await keyboard.pressKey(...codes);
      // The same order as pressed: nut-js releases the last key given with the ones before it as its modifiers. Given
      // in reverse, it let go of the modifier alone, and the key stayed down for X to repeat (a paste typed "vvvv").
      await keyboard.releaseKey(...codes);
    },
    activeWindowTitle: async () => {
      if (options.windowTitle) return options.windowTitle();
      try {
        return await (await getActiveWindow()).title;
      } catch {
        return undefined;
      }
    },
    readClipboard: async () => {
      try {
        return await clipboard.getContent();
      } catch {
        // An empty clipboard is an error for xsel; there is simply nothing to restore then.
        return '';
      }
    },
    writeClipboard: (text) => clipboard.setContent(text),
  };
}

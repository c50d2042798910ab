import type { DesktopDisplay } from '../../../../shared/protocol';
import type { DesktopDriver, RawCapture } from '../../../../native-host/desktop/desktop-driver';

export interface FakeDriver extends DesktopDriver {
  /** Every call that would change something on the screen, in order. */
  calls: string[];
  clipboard: string;
  title: string | undefined;
}

export const DISPLAY_0: DesktopDisplay = { id: '0', name: 'screen', x: 0, y: 0, width: 1280, height: 800, scaleFactor: 1, primary: true };

/** A recording driver: what a real one would do to the screen, as readable lines. */
export function fakeDriver(options: { displays?: DesktopDisplay[]; capture?: () => RawCapture; onType?: (text: string) => Promise<void> } = {}): FakeDriver {
  const driver: FakeDriver = {
    calls: [],
    clipboard: 'user clipboard',
    title: 'Untitled - Editor',
    displays: () => Promise.resolve(options.displays ?? [DISPLAY_0]),
    capture: (display) =>
      Promise.resolve(
        options.capture?.() ?? { width: display.width, height: display.height, data: Buffer.alloc(display.width * display.height * 4, 0x80), order: 'bgra' },
      ),
    movePointer: (p) => record(`move ${p.x},${p.y}`),
    click: (button, count) => record(`click ${button} x${count}`),
    pressButton: (button) => record(`press ${button}`),
    releaseButton: (button) => record(`release ${button}`),
    scroll: (direction, amount) => record(`scroll ${direction} ${amount}`),
    typeText: async (text) => {
      await options.onType?.(text);
      driver.calls.push(`type ${text}`);
    },
    pressChord: (keys) => record(`chord ${keys.join('+')}`),
    activeWindowTitle: () => Promise.resolve(driver.title),
    readClipboard: () => Promise.resolve(driver.clipboard),
    writeClipboard: (text) => {
      driver.clipboard = text;
      return record(`clipboard ${text}`);
    },
  };
  function record(line: string): Promise<void> {
    driver.calls.push(line);
    return Promise.resolve();
  }
  return driver;
}

import { describe, expect, it } from 'vitest';
import { frameSize, mapToScreen } from '../../../../native-host/desktop/map-coordinates';
import type { DesktopDisplay } from '../../../../shared/protocol';

const plain: DesktopDisplay = { id: '0', name: 'screen', x: 0, y: 0, width: 1280, height: 800, scaleFactor: 1, primary: true };
// A 200% display: the capture is 2880x1800 physical pixels, the mouse works in 1440x900 logical ones.
const retina: DesktopDisplay = { id: '1', name: 'built-in', x: 1280, y: 0, width: 1440, height: 900, scaleFactor: 2, primary: false };

describe('mapToScreen', () => {
  it('maps a point on a half-size screenshot to the middle of the screen pixels it covers', () => {
    expect(mapToScreen({ x: 320, y: 200 }, { displayId: '0', width: 640, height: 400 }, plain)).toEqual({ x: 641, y: 401 });
    expect(mapToScreen({ x: 0, y: 0 }, { displayId: '0', width: 640, height: 400 }, plain)).toEqual({ x: 1, y: 1 });
  });

  it('on a scaled display maps to logical pixels and adds the display origin, never using the physical size', () => {
    // The model saw the 2880-wide capture downscaled to 1280; its point (640, 400) is the middle of the display.
    const point = mapToScreen({ x: 640, y: 400 }, { displayId: '1', width: 1280, height: 800 }, retina);
    expect(point).toEqual({ x: 1280 + 720, y: 450 });
  });

  it('keeps the far edge on the display', () => {
    expect(mapToScreen({ x: 640, y: 400 }, { displayId: '0', width: 640, height: 400 }, plain)).toEqual({ x: 1279, y: 799 });
  });

  it('refuses points outside the screenshot and frames of another display, saying what to do', () => {
    expect(() => mapToScreen({ x: 700, y: 10 }, { displayId: '0', width: 640, height: 400 }, plain)).toThrow(/outside the 640x400 screenshot/);
    expect(() => mapToScreen({ x: 1, y: 1 }, { displayId: '1', width: 640, height: 400 }, plain)).toThrow(/take a new screenshot/);
  });
});

describe('frameSize', () => {
  it('keeps the aspect ratio and never upscales', () => {
    expect(frameSize({ width: 1920, height: 1080 }, 1280)).toEqual({ width: 1280, height: 720 });
    expect(frameSize({ width: 800, height: 600 }, 1280)).toEqual({ width: 800, height: 600 });
  });
});

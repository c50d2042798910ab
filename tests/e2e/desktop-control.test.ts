import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopAction, type DesktopActionInput, type DesktopFrame, type DesktopScreenshotResult } from '../../shared/protocol';
import { findColour } from '../fixtures/desktop/find-colour';
import { startHost, type HostClient } from '../fixtures/desktop/host-client';
import { TARGET_COLOURS, type TargetName } from '../fixtures/desktop/target-page';
import { xvfbMissingReason } from '../fixtures/desktop/virtual-display';
import { useDesktopTarget } from './support/desktop-target';
import { useE2e } from './support/e2e-fixture';
import { waitUntil } from './support/wait-until';

const HOST = 'dist-host/deputy.mjs';
const skipReason = xvfbMissingReason() ?? (existsSync(HOST) ? undefined : `${HOST} is missing: run \`npm run build\` first`);
if (skipReason) console.warn(`desktop-control tests skipped: ${skipReason}`);

interface PageRecord {
  clicks: { id: string; x: number; y: number }[];
  contextMenus: number;
  doubleClicks: number;
  drop: { x: number; y: number; inZone: boolean } | null;
}

describe.skipIf(skipReason !== undefined)('desktop control on a real X display (Xvfb, Chromium, the built host)', () => {
  const desk = useDesktopTarget();
  const e2e = useE2e({ browser: false, work: true });
  let host: HostClient;

  beforeAll(() => {
    host = startHost({ ...desk.displayEnv(), DEPUTY_LOG_FILE: join(e2e.work, 'host.log'), DEPUTY_DESKTOP_POLICY: join(e2e.work, 'none.json') });
  });
  afterAll(async () => {
    await host?.close();
  });

  const record = (): Promise<PageRecord> => desk.page.evaluate(() => (window as unknown as { record: PageRecord }).record);
  const shoot = (width = 640): Promise<DesktopScreenshotResult> => host.rpc.call('desktop.screenshot', { width, quality: 80 });
  const act = (action: DesktopActionInput, frame?: DesktopFrame, dryRun = false) =>
    host.rpc.call('desktop.act', { action: DesktopAction.parse(action), ...(frame ? { frame } : {}), dryRun, approvedSensitive: false });
  /** Where the model would click: the centre of the target's colour in a fresh screenshot. */
  async function locate(target: TargetName, width = 640): Promise<{ frame: DesktopFrame; x: number; y: number }> {
    const shot = await shoot(width);
    const point = await findColour(shot.image.base64, TARGET_COLOURS[target]);
    return { frame: shot.frame, x: point.x, y: point.y };
  }

  it('reports the display, its size and the stop hotkey', async () => {
    const status = await host.rpc.call('desktop.status', { refresh: false });
    expect(status).toMatchObject({ available: true, displays: [{ id: '0', width: 1280, height: 800, scaleFactor: 1 }], stopHotkey: 'Ctrl+Alt+Shift+S' });
  });

  it('sends a downscaled JPEG and keeps the full-size PNG', async () => {
    const pngPath = join(e2e.work, 'step-1.png');
    const shot = await host.rpc.call('desktop.screenshot', { width: 640, quality: 70, pngPath });
    expect(shot.frame).toEqual({ displayId: '0', width: 640, height: 400 });
    expect(shot.captured).toEqual({ width: 1280, height: 800 });
    expect(shot.image.bytes).toBeLessThan(700_000);
    // The PNG is written beside the reply, not before it; it lands a moment later.
    await waitUntil(`the PNG at ${pngPath}`, () => existsSync(pngPath));
    expect((await stat(pngPath)).size).toBeGreaterThan(1000);
  });

  it('clicks the element found in a half-size screenshot, not its neighbour', async () => {
    const target = await locate('button', 640);
    const result = await act({ kind: 'click', x: target.x, y: target.y }, target.frame);
    expect(result.performed).toBe(true);
    await desk.page.waitForFunction(() => (window as unknown as { record: PageRecord }).record.clicks.length > 0);
    expect((await record()).clicks.at(-1)?.id).toBe('button');
  });

  it('maps coordinates from a screenshot of yet another scale (a 1000-wide image)', async () => {
    const before = (await record()).clicks.length;
    const target = await locate('button', 1000);
    expect(target.frame.width).toBe(1000);
    await act({ kind: 'click', x: target.x, y: target.y }, target.frame);
    await desk.page.waitForFunction((n: number) => (window as unknown as { record: PageRecord }).record.clicks.length > n, {}, before);
    expect((await record()).clicks.at(-1)?.id).toBe('button');
  });

  it('double-clicks and right-clicks where it is told', async () => {
    const target = await locate('button');
    await act({ kind: 'double_click', x: target.x, y: target.y }, target.frame);
    await act({ kind: 'right_click', x: target.x, y: target.y }, target.frame);
    await desk.page.waitForFunction(() => (window as unknown as { record: PageRecord }).record.contextMenus > 0);
    const seen = await record();
    expect(seen.doubleClicks).toBe(1);
    expect(seen.contextMenus).toBe(1);
  });

  it('types into the clicked field: short text key by key, long and accented text by paste, restoring the clipboard', async () => {
    execFileSync('xsel', ['--clipboard', '--input'], { input: 'what the user copied', env: desk.displayEnv() });
    const field = await locate('input');
    await act({ kind: 'click', x: field.x, y: field.y }, field.frame);
    const typed = await act({ kind: 'type', text: 'hello world 42' });
    expect(typed.typedBy).toBe('keys');
    const pasted = await act({ kind: 'type', text: ' — Grüße aus Köln, 東京 ✓ and a sentence long enough to be pasted' });
    expect(pasted.typedBy).toBe('paste');
    const value = await desk.page.$eval('#input', (input) => (input as HTMLInputElement).value);
    expect(value).toBe('hello world 42 — Grüße aus Köln, 東京 ✓ and a sentence long enough to be pasted');
    const clipboard = execFileSync('xsel', ['--clipboard', '--output'], { env: desk.displayEnv(), encoding: 'utf8' });
    expect(clipboard).toBe('what the user copied');
  });

  it('presses key chords: select all, then delete', async () => {
    await act({ kind: 'key', keys: 'ctrl+a' });
    await act({ kind: 'key', keys: 'backspace' });
    expect(await desk.page.$eval('#input', (input) => (input as HTMLInputElement).value)).toBe('');
  });

  it('drags the handle into the drop zone', async () => {
    const handle = await locate('handle');
    const zone = await locate('dropZone');
    await act({ kind: 'drag', from: { x: handle.x, y: handle.y }, to: { x: zone.x, y: zone.y } }, handle.frame);
    await desk.page.waitForFunction(() => (window as unknown as { record: PageRecord }).record.drop !== null);
    expect((await record()).drop?.inZone).toBe(true);
  });

  it('scrolls the box under the pointer', async () => {
    const box = await locate('scroller');
    await act({ kind: 'scroll', x: box.x, y: box.y, direction: 'down', amount: 5 }, box.frame);
    await desk.page.waitForFunction(() => (document.getElementById('scroller')?.scrollTop ?? 0) > 0);
    expect(await desk.page.$eval('#scroller', (element) => element.scrollTop)).toBeGreaterThan(0);
  });

  it('in a dry run says what it would do and does nothing', async () => {
    const before = await record();
    const target = await locate('button');
    const result = await act({ kind: 'click', x: target.x, y: target.y }, target.frame, true);
    expect(result).toMatchObject({ performed: false, description: expect.stringMatching(/^Dry run: would click at \(\d+, \d+\) on display 0$/) as unknown });
    const typed = await act({ kind: 'type', text: 'not typed' }, undefined, true);
    expect(typed.performed).toBe(false);
    // A real pointer move after them, seen by the page: X delivers input in order, so a click or keys the dry runs
    // had sent would have reached the page before it.
    await desk.page.evaluate(() => {
      const marked = window as unknown as { movedAfterDryRun?: boolean };
      marked.movedAfterDryRun = false;
      window.addEventListener('mousemove', () => (marked.movedAfterDryRun = true), { once: true });
    });
    const elsewhere = await locate('input');
    // Two points, so the pointer moves wherever an earlier test left it.
    for (const dx of [0, 10]) expect((await act({ kind: 'move', x: elsewhere.x + dx, y: elsewhere.y }, elsewhere.frame)).performed).toBe(true);
    await desk.page.waitForFunction(() => (window as unknown as { movedAfterDryRun?: boolean }).movedAfterDryRun === true);
    expect((await record()).clicks.length).toBe(before.clicks.length);
    expect(await desk.page.$eval('#input', (input) => (input as HTMLInputElement).value)).toBe('');
  });

  it('refuses to act while a blocked application has the focus', async () => {
    await desk.page.evaluate(() => (document.title = 'Online Banking'));
    // The window manager protocol updates the X window's title a moment after the page's.
    const xTitle = (): string => execFileSync('xdotool', ['getwindowfocus', 'getwindowname'], { env: desk.displayEnv(), encoding: 'utf8' });
    await waitUntil('the focused X window to take the page\'s new title', () => xTitle().includes('Online Banking'));
    expect(xTitle()).toContain('Online Banking');
    const target = await locate('button');
    const before = (await record()).clicks.length;
    await expect(act({ kind: 'click', x: target.x, y: target.y }, target.frame)).rejects.toMatchObject({ code: 'policy_denied' });
    await desk.page.evaluate(() => (document.title = 'Desktop target'));
    expect((await record()).clicks.length).toBe(before);
  });

  it('stops a running action at once when the user presses the stop hotkey', async () => {
    // The longest wait the protocol takes: left alone it ends as finished, so ending as cancelled is the hotkey's doing
    // (a clock would decide nothing on a busy machine).
    const waiting = act({ kind: 'wait', seconds: 60 });
    let settled = false;
    const outcome = waiting.then(
      () => 'finished',
      (error: unknown) => error,
    );
    void outcome.finally(() => (settled = true));
    // The hotkey stops the actions running when it is pressed; a press before the worker has begun the wait finds
    // nothing to stop. So: press until a press has cut the wait off.
    await waitUntil(
      'the stop hotkey to cut off the running wait',
      () => {
        if (!settled) execFileSync('xdotool', ['key', 'ctrl+alt+shift+s'], { env: desk.displayEnv() });
        return settled;
      },
      { everyMs: 250, timeoutMs: 60_000 },
    );
    expect(await outcome).toMatchObject({ code: 'cancelled' });
    expect(host.events.some((event) => event.event === 'desktop.stopped')).toBe(true);
  });
});

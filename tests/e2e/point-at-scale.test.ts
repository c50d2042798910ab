import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { call } from './support/snapshot-refs';
import { untilTaskEnds } from './support/task-harness';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { waitUntil } from './support/wait-until';

// Issue 26 item 1: a position read off the screenshot Deputy sends the model is where click_at lands, whatever the
// page's zoom (the capture is in device pixels: at zoom 2 one CSS pixel is two of them) and however far it is
// scrolled. Generated canvas pages (no element to number, only pixels) at three zooms, clicked before and after a
// scroll; the page's own hit test says which square each click reached.

const PALETTE: [number, number, number][] = [
  [230, 25, 25],
  [25, 160, 40],
  [30, 60, 230],
  [240, 200, 0],
  [200, 30, 200],
  [0, 190, 200],
];

/** Squares at generated places down a tall canvas, a row every 65 pixels, colours in turn: any screen shows some. */
function squares(seed: number): { x: number; y: number; colour: number }[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: 26 }, (_, row) => ({ x: 10 + Math.floor(next() * 330), y: 20 + row * 65 + Math.floor(next() * 20), colour: row % PALETTE.length }));
}

const ZOOMS = [1, 1.5, 2];
const SIZE = 36;

function pageFor(seed: number): string {
  return `<!doctype html><html><head><title>Canvas ${seed}</title><style>body{margin:0}</style></head><body>
<canvas id="c" width="420" height="1800" style="width:420px;height:1800px;display:block"></canvas><p id="log" style="position:fixed;top:0;right:0;margin:0;background:#fff"></p>
<script>
  const squares = ${JSON.stringify(squares(seed))};
  const palette = ${JSON.stringify(PALETTE)};
  const ctx = document.getElementById('c').getContext('2d');
  for (const s of squares) { ctx.fillStyle = 'rgb(' + palette[s.colour].join(',') + ')'; ctx.fillRect(s.x, s.y, ${SIZE}, ${SIZE}); }
  document.getElementById('c').addEventListener('click', (e) => {
    const hit = squares.find((s) => e.offsetX >= s.x && e.offsetX < s.x + ${SIZE} && e.offsetY >= s.y && e.offsetY < s.y + ${SIZE});
    document.getElementById('log').textContent += (hit ? 'colour' + hit.colour + '@' + hit.y : 'miss@' + e.offsetX + ',' + e.offsetY) + ';';
  });
</script></body></html>`;
}

const e2e = useE2e({ model: true, stepBudget: 30, dropModelAfterEach: true, routes: Object.fromEntries(ZOOMS.map((zoom, i) => [`/canvas-${i}`, pageFor(7 + i)])) });

/** The image that came with the request's latest page view. */
function imageOf(request: RecordedRequest): Buffer {
  const messages = (request.json as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
  for (const message of [...messages].reverse()) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: string; image_url?: { url?: string } }[]) {
      const data = part.type === 'image_url' ? /^data:image\/\w+;base64,(.*)$/.exec(part.image_url?.url ?? '')?.[1] : undefined;
      if (data) return Buffer.from(data, 'base64');
    }
    break;
  }
  throw new Error('The page view came with no screenshot');
}

/** The square that shows largest in the screenshot (one colour's largest connected patch): its colour and middle. */
async function biggestSquare(jpeg: Buffer): Promise<{ colour: number; x: number; y: number }> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const colourAt = (i: number): number =>
    PALETTE.findIndex((rgb) => Math.abs((data[i * 3] ?? 0) - rgb[0]) + Math.abs((data[i * 3 + 1] ?? 0) - rgb[1]) + Math.abs((data[i * 3 + 2] ?? 0) - rgb[2]) <= 60);
  const seen = new Uint8Array(width * height);
  let best = { colour: -1, count: 0, x: 0, y: 0 };
  for (let start = 0; start < width * height; start += 1) {
    const colour = seen[start] ? -1 : colourAt(start);
    if (colour < 0) continue;
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    let sx = 0;
    let sy = 0;
    while (stack.length > 0) {
      const at = stack.pop() ?? 0;
      count += 1;
      sx += at % width;
      sy += Math.floor(at / width);
      for (const next of [at - 1, at + 1, at - width, at + width]) {
        if (next < 0 || next >= width * height || seen[next] || Math.abs((next % width) - (at % width)) > 1 || colourAt(next) !== colour) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    if (count > best.count) best = { colour, count, x: sx / count, y: sy / count };
  }
  if (best.count < 100) throw new Error('No square shows in the screenshot');
  return { colour: best.colour, x: Math.round(best.x), y: Math.round(best.y) };
}

it('click_at lands where the screenshot shows the target, at zoom 1, 1.5 and 2, before and after a scroll', async () => {
  const helper = await e2e.helper();
  // A model that reads images: it is sent a screenshot when it asks for one.
  await uiCall(helper, 'settings.set', {
    provider: { preset: 'custom', baseUrl: e2e.modelBaseUrl, model: 'gpt-4o', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: true, timeoutMs: 60_000, maxRetries: 0 },
    defaultMode: 'act',
    stepBudget: 30,
  });
  for (const [index, zoom] of ZOOMS.entries()) {
    const page = await e2e.ext.browser.newPage();
    // No emulated viewport: the window as a user has it, so the capture and the page agree on what is shown.
    await page.setViewport(null);
    const url = e2e.site.url(`/canvas-${index}`, 'shop.test');
    await page.goto(url);
    await page.bringToFront();
    const tabId = await helper.evaluate(async (href) => (await chrome.tabs.query({})).find((tab) => tab.url === href)?.id ?? -1, page.url());
    await helper.evaluate((id, factor) => chrome.tabs.setZoom(id, factor), tabId, zoom);
    await waitUntil('the zoom to apply', () => page.evaluate((factor) => Math.abs(window.devicePixelRatio - factor) < 0.01 || window.devicePixelRatio > 1.01 * factor, zoom));

    // The scripted model: screenshot, click the biggest square it shows; scroll down; again; done.
    const aimed: number[] = [];
    const plan = ['screenshot', 'click', 'scroll', 'screenshot', 'click', 'done'];
    let pending: Promise<unknown> | null = null;
    let target: { colour: number; x: number; y: number } | null = null;
    let failure = '';
    const step = (request: RecordedRequest) => {
      if (pending) {
        // The image is decoded while the model waits a moment (the fake model answers at once).
        if (failure) return call('done', { success: false, summary: failure });
        if (!target) return call('wait', { seconds: 0.2 });
        pending = null;
      }
      const next = plan.shift();
      if (next === 'screenshot') return call('screenshot', {});
      if (next === 'click' && !target) {
        plan.unshift('click');
        pending = biggestSquare(imageOf(request)).then((found) => (target = found), (error: unknown) => (failure = String(error)));
        return call('wait', { seconds: 0.2 });
      }
      if (next === 'click' && target) {
        const { x, y, colour } = target;
        target = null;
        aimed.push(colour);
        return call('click_at', { x, y });
      }
      if (next === 'scroll') return call('scroll', { direction: 'down', pages: 1 });
      return call('done', { success: true, summary: 'Clicked the squares.' });
    };
    for (let i = 0; i < 30; i += 1) e2e.fake.enqueue(step);
    const started = await uiCall(helper, 'task.start', { tabId, text: 'Click the biggest square you see, scroll, and again.', mode: 'act', flow: 'task' });
    await untilTaskEnds(helper, started.id, 60_000);
    // What the script still had queued for this task must not answer the next.
    e2e.fake.drop();
    const log = await page.$eval('#log', (el) => el.textContent ?? '');
    const scrolled = await page.evaluate(() => window.scrollY);
    // Both clicks reached the square the screenshot showed, the second one below the first screen.
    expect(scrolled, `zoom ${zoom}`).toBeGreaterThan(0);
    expect(aimed, `zoom ${zoom}: ${log} ${failure}`).toHaveLength(2);
    const hits = log.split(';').filter(Boolean);
    expect(hits.map((hit) => hit.split('@')[0]), `zoom ${zoom}: ${log}`).toEqual(aimed.map((colour) => `colour${colour}`));
    expect(Number(hits[1]?.split('@')[1]), `zoom ${zoom}: the second click is on a square further down`).toBeGreaterThan(scrolled - SIZE);
    await page.close();
  }
});

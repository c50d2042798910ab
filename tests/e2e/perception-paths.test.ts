import { expect, it } from 'vitest';
import { openTab } from './support/open-tab';
import { call } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { untilTaskEnds } from './support/task-harness';

// Issue 26 items 1 and 3 (a drag lands where the tool says): drag_at through `via` points draws a path, as a hand does
// (a circle round a mark, a signature), with the pointer passing through each point in order and never cutting across.
// Generated paths (circles of two sizes at generated centres, a zigzag, a square) are drawn on two kinds of pad: one
// that follows the mouse on the window once pressed (d3's drag, as MiniWoB's draw-circle uses), one that captures the
// pointer and follows its pointer events. Each pad records the track it saw; the track must be the path.

type Point = { x: number; y: number };

/** Paths in pad coordinates (a pad is 300 x 200), start to end. */
function paths(seed: number): Point[][] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const circle = (r: number): Point[] => {
    const c = { x: r + 5 + next() * (290 - 2 * r), y: r + 5 + next() * (190 - 2 * r) };
    return Array.from({ length: 25 }, (_, i) => ({ x: c.x + r * Math.cos((i * Math.PI) / 12), y: c.y + r * Math.sin((i * Math.PI) / 12) }));
  };
  const zigzag = Array.from({ length: 9 }, (_, i) => ({ x: 20 + i * 32, y: i % 2 === 0 ? 40 : 160 }));
  const square = [
    { x: 60, y: 40 },
    { x: 240, y: 40 },
    { x: 240, y: 160 },
    { x: 60, y: 160 },
    { x: 60, y: 41 },
  ];
  return [circle(15), circle(60), zigzag, square];
}

const PADS = ['mouse', 'pointer'] as const;

const PAGE = `<!doctype html><html><head><title>Pads</title><style>body{margin:0;font:14px sans-serif}
.pad{width:300px;height:200px;border:1px solid;margin:20px;touch-action:none;display:block}</style></head><body>
<svg id="mouse" class="pad"></svg>
<div id="pointer" class="pad"></div>
<p id="drawn">0 strokes</p>
<script>
  // Each stroke shows on the page, as a drawing does (a page that changed nothing would read as a step that did nothing).
  const drawn = () => { document.getElementById('drawn').textContent = (tracks.mouse.length + tracks.pointer.length) + ' strokes'; };
  window.tracks = { mouse: [], pointer: [] };
  const at = (pad, event) => { const r = pad.getBoundingClientRect(); return [event.clientX - r.left, event.clientY - r.top]; };
  // As d3's drag: pressed on the pad, then the window's mouse moves until the button is let go.
  const mouse = document.getElementById('mouse');
  mouse.addEventListener('mousedown', (event) => {
    const stroke = [at(mouse, event)];
    tracks.mouse.push(stroke);
    const move = (e) => stroke.push(at(mouse, e));
    const up = () => { window.removeEventListener('mousemove', move); window.removeEventListener('mouseup', up); drawn(); };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  });
  // A canvas-style pad: captures the pointer and follows its events.
  const pointer = document.getElementById('pointer');
  let stroke = null;
  pointer.addEventListener('pointerdown', (event) => { pointer.setPointerCapture(event.pointerId); stroke = [at(pointer, event)]; tracks.pointer.push(stroke); });
  pointer.addEventListener('pointermove', (event) => { if (stroke) stroke.push(at(pointer, event)); });
  pointer.addEventListener('pointerup', () => { stroke = null; drawn(); });
</script></body></html>`;

const e2e = useE2e({ model: 'act', stepBudget: 20, routes: { '/pads': PAGE } });

/** How far a point is from the segment a-b. */
function toSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

it('drag_at through via points draws the path on pads that follow the mouse or capture the pointer', async () => {
  const helper = await e2e.helper();
  // Positions are offered only to a model that reads images (one that is shown a screenshot when it asks).
  await uiCall(helper, 'settings.set', {
    provider: { preset: 'custom', baseUrl: e2e.modelBaseUrl, model: 'gpt-4o', stream: true, openaiApi: 'chat', toolCalling: 'native', vision: true, timeoutMs: 60_000, maxRetries: 0 },
  });
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/pads', 'shop.test'));
  const boxes = await page.evaluate((ids: readonly string[]) => ids.map((id) => {
    const r = document.getElementById(id)?.getBoundingClientRect();
    return { x: r?.left ?? 0, y: r?.top ?? 0 };
  }), PADS);
  const drawn = PADS.flatMap((pad, i) => paths(11 + i).map((path) => ({ pad, path, box: boxes[i] ?? { x: 0, y: 0 } })));
  const results: string[] = [];
  for (const { path, box } of drawn) {
    // The viewport is the screenshot at this page's scale: a pad's point plus the pad's place is where the model aims.
    const onScreen = path.map((p) => ({ x: p.x + box.x, y: p.y + box.y }));
    const [start, ...rest] = onScreen;
    const end = rest.pop();
    e2e.fake.enqueue((request) => {
      const tool = (request.json as { messages?: { role: string; content?: unknown }[] }).messages?.filter((m) => m.role === 'tool').at(-1)?.content;
      if (typeof tool === 'string') results.push(tool);
      return call('drag_at', { x: start?.x, y: start?.y, to_x: end?.x, to_y: end?.y, via: rest });
    });
  }
  e2e.fake.enqueue(call('done', { success: true, summary: 'Drew every path.' }));
  const started = await uiCall(helper, 'task.start', { tabId, text: 'Draw the paths.', mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 120_000);

  const tracks = await page.evaluate(() => (window as unknown as { tracks: Record<string, [number, number][][]> }).tracks);
  for (const pad of PADS) {
    const strokes = tracks[pad] ?? [];
    const wanted = drawn.filter((d) => d.pad === pad);
    expect(strokes, `${pad}: one stroke a drag (${results.join(' | ')})`).toHaveLength(wanted.length);
    wanted.forEach(({ path }, i) => {
      const track = (strokes[i] ?? []).map(([x, y]) => ({ x, y }));
      const label = `${pad} path ${i}`;
      // It starts where the path starts, passes through every point of it in order, and never strays off it.
      expect(Math.hypot((track[0]?.x ?? 0) - (path[0]?.x ?? 0), (track[0]?.y ?? 0) - (path[0]?.y ?? 0)), label).toBeLessThan(1.5);
      let from = 0;
      for (const point of path.slice(1)) {
        const hit = track.findIndex((p, j) => j >= from && Math.hypot(p.x - point.x, p.y - point.y) < 1.5);
        expect(hit, `${label}: passes ${point.x.toFixed(1)},${point.y.toFixed(1)} after the points before it`).toBeGreaterThanOrEqual(0);
        from = hit;
      }
      const off = Math.max(...track.map((p) => Math.min(...path.slice(1).map((b, j) => toSegment(p, path[j] ?? b, b)))));
      expect(off, `${label}: the farthest the pointer strayed from the path`).toBeLessThan(1.5);
    });
  }
  await page.close();
});

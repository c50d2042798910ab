import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDesktopTask } from '../native-host/desktop/agent/run-desktop-task';
import { createDesktopService } from '../native-host/desktop/create-desktop-service';
import { encodeForModel, loadSharp, toRgba } from '../native-host/desktop/screenshot-encoder';
import { createLogger, streamSink } from '../native-host/log/logger';
import type { Provider } from '../shared/agent/providers/provider';
import { startHost } from '../tests/fixtures/desktop/host-client';
import { medianTime } from './lib/median-time';
import { startVirtualDisplay } from '../tests/fixtures/desktop/virtual-display';

/**
 * `npm run bench:desktop`: how fast the desktop path is under Xvfb at 1280x800 and 1920x1080, beside peers measured in
 * the same run on the same screen. Each resolution gets its own X server with Chromium showing a text-heavy page, and
 * its own child process (nut-js keeps the first display it opens). Figures are medians of 20 after 3 warm-up rounds.
 */
const RUNS = 20;
const WARMUP = 3;
const MODEL_WIDTH = 1280;
const QUALITY = 70;
const HOST = 'dist-host/deputy.mjs';
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

type Figures = Record<string, number>;

const median = (run: () => Promise<unknown> | unknown, runs = RUNS): Promise<number> => medianTime(run, runs, WARMUP);

const PAGE = `<!doctype html><meta charset="utf-8"><body style="margin:0;font:15px sans-serif;columns:4;padding:16px">${Array.from(
  { length: 60 },
  (_, i) => `<h3 style="color:hsl(${i * 37},60%,40%)">Section ${i + 1}</h3><p>Deputy acts for its user on the desktop: screenshots, the mouse and the keyboard, inside limits the user sets. Paragraph ${i + 1} fills the screen with text the way real applications do.</p>`,
).join('')}</body>`;

/** Measures one resolution; runs in a child whose DISPLAY is that resolution's X server. Prints JSON figures. */
async function measure(): Promise<void> {
  const env = { ...process.env };
  const figures: Figures = {};
  const { screen, FileType } = await import('@nut-tree-fork/nut-js');
  const sharp = await loadSharp();
  figures.capture = await median(() => screen.grab());
  const frame = await screen.grab();
  const raw = { width: frame.width, height: frame.height, data: frame.data, order: 'bgra' as const };
  figures.encode = await median(() => encodeForModel(sharp, toRgba({ ...raw, data: Buffer.from(raw.data) }), { width: MODEL_WIDTH, quality: QUALITY, maxBytes: 700_000 }));
  let bytes = 0;
  figures.ready = await median(async () => {
    const shot = await screen.grab();
    const image = await encodeForModel(sharp, toRgba({ width: shot.width, height: shot.height, data: shot.data, order: 'bgra' }), { width: MODEL_WIDTH, quality: QUALITY, maxBytes: 700_000 });
    bytes = image.jpeg.length;
  });
  figures.jpegKb = bytes / 1024;
  const scratch = await mkdtemp(join(tmpdir(), 'deputy-bench-'));
  // A peer whose tool is not installed is left out of the table rather than failing the run.
  const installed = (tool: string): boolean => execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim() !== '';
  if (installed('import')) figures.peerImport = await median(() => execFileSync('import', ['-window', 'root', '-resize', `${MODEL_WIDTH}x`, '-quality', String(QUALITY), 'jpeg:-'], { env, maxBuffer: 64 << 20 }));
  if (installed('xwd')) figures.peerXwd = await median(() => execFileSync('xwd', ['-root', '-silent'], { env, maxBuffer: 64 << 20 }));
  figures.peerNutCapture = await median(() => screen.capture('nut', FileType.JPG, scratch), 10);

  const host = startHost({ ...env, DEPUTY_LOG_FILE: join(scratch, 'host.log') }, HOST);
  await host.rpc.call('desktop.status', { refresh: false });
  figures.roundTrip = await median(() => host.rpc.call('desktop.screenshot', { width: MODEL_WIDTH, quality: QUALITY }));
  await host.close();

  // The loop with a model that answers at once: what remains is Deputy's own cost per step.
  const steps = RUNS;
  /**
   * A model that answers at once, counting the images it is sent: moving the pointer back and forth (the loop's own
   * cost per step), or waiting for a screen that stays as it is (an idle screen).
   */
  const instantModel = (action: 'move' | 'wait'): Provider & { sent: { requests: number; images: number; imageBytes: number } } => {
    let turn = 0;
    const sent = { requests: 0, images: 0, imageBytes: 0 };
    return {
      label: 'instant',
      model: 'instant-vision',
      vision: true,
      free: true,
      sent,
      complete: (request) => {
        turn += 1;
        sent.requests += 1;
        const image = request.messages.flatMap((m) => ('image' in m && m.image ? [m.image] : []));
        sent.images += image.length;
        sent.imageBytes += image.reduce((sum, i) => sum + Math.floor((i.base64.length * 3) / 4), 0);
        const call = turn > steps ? { name: 'done', arguments: '{"success":true,"summary":"done"}' } : action === 'wait'
              ? { name: 'wait', arguments: JSON.stringify({ seconds: 0 }) }
              : { name: 'move', arguments: JSON.stringify({ x: 100 + (turn % 2) * 200, y: 100 }) };
        return Promise.resolve({ text: '', toolCalls: [{ id: `c${turn}`, ...call }], usage: null, model: 'instant-vision', stopReason: 'tool_use' });
      },
    };
  };
  const log = createLogger('bench', [streamSink(process.stderr)], 'warn');
  const desktop = createDesktopService({ entry: HOST, log });
  await desktop.status();
  const loop = (provider: Provider, runDir: string, skipUnchanged: boolean): ReturnType<typeof runDesktopTask> =>
    runDesktopTask({
      task: 'Watch the screen',
      provider,
      desktop,
      runDir,
      mode: 'act',
      approve: () => Promise.resolve({ approved: true }),
      dryRun: false,
      width: MODEL_WIDTH,
      quality: QUALITY,
      maxSteps: steps + 5,
      log,
      now: () => Date.now(),
      skipUnchanged,
    });
  // An idle screen the model waits on (until the loop's stagnation check ends it), every screenshot sent, then with
  // unchanged screens left out.
  const everyShot = instantModel('wait');
  await loop(everyShot, join(scratch, 'idle-every-shot'), false);
  figures.idleRequests = everyShot.sent.requests;
  figures.idleImagesAll = everyShot.sent.images;
  figures.idleKbAll = everyShot.sent.imageBytes / 1024;
  const waiting = instantModel('wait');
  await loop(waiting, join(scratch, 'idle'), true);
  figures.idleImages = waiting.sent.images;
  figures.idleKb = waiting.sent.imageBytes / 1024;
  const instant = instantModel('move');
  const started = performance.now();
  const { state } = await loop(instant, join(scratch, 'run'), true);
  figures.loopStep = (performance.now() - started) / state.steps.length;
  // Where a step's time goes, from the run folder's own timings.
  const lines = (await readFile(join(scratch, 'run', 'steps.jsonl'), 'utf8')).trim().split('\n');
  const timings = lines.map((line) => (JSON.parse(line) as { timings: { screenshotMs: number | null; actionMs: number | null } }).timings);
  const mid = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  figures.loopScreenshot = mid(timings.flatMap((t) => (t.screenshotMs === null ? [] : [t.screenshotMs])));
  figures.loopAction = mid(timings.flatMap((t) => (t.actionMs === null ? [] : [t.actionMs])));
  // A move sends no input to a window, so it skips the focused-window lookup; a click pays for it. A corner of the text
  // page is a harmless place to click.
  const shot = await desktop.screenshot({ width: MODEL_WIDTH, quality: QUALITY });
  figures.actClick = await median(() => desktop.act({ action: { kind: 'click', x: 4, y: 4 }, frame: shot.frame }));
  await desktop.close();
  await rm(scratch, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(figures));
}

async function main(): Promise<void> {
  if (!existsSync(HOST)) throw new Error(`${HOST} is missing: run \`npm run build:host\` first`);
  const results: Figures[] = [];
  for (const [width, height] of SIZES) {
    const screen = await startVirtualDisplay({ width, height, reuse: false });
    const profile = await mkdtemp(join(tmpdir(), 'deputy-bench-profile-'));
    const browser = spawn('chromium', ['--no-sandbox', '--kiosk', '--no-first-run', '--disable-gpu', `--user-data-dir=${profile}`, `data:text/html,${encodeURIComponent(PAGE)}`], {
      env: { ...process.env, DISPLAY: screen.display },
      stdio: 'ignore',
    });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    process.stderr.write(`measuring ${width}x${height} on ${screen.display}...\n`);
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bench-desktop.ts', '--measure'], {
      env: { ...process.env, DISPLAY: screen.display },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results.push(JSON.parse(out) as Figures);
    browser.kill('SIGTERM');
    await screen.close();
    await rm(profile, { recursive: true, force: true });
  }
  const rows: [string, string, string?][] = [
    ['Deputy: capture (nut-js grab, in process)', 'capture'],
    [`Deputy: downscale to ${MODEL_WIDTH} wide + JPEG q${QUALITY} (sharp)`, 'encode'],
    ['Deputy: screenshot ready for the model (capture + encode)', 'ready', 'target < 60 ms at 1280x800'],
    ['Deputy: host round trip, desktop.screenshot over native messaging', 'roundTrip'],
    ['Peer: ImageMagick import -window root -> JPEG (process per shot)', 'peerImport'],
    ['Peer: xwd -root, capture only (process per shot)', 'peerXwd'],
    ['Peer: nut-js screen.capture -> JPEG file (jimp, pure JS; median of 10)', 'peerNutCapture'],
    ['Deputy: agent loop per step apart from the model (instant fake model)', 'loopStep', 'target < 150 ms'],
    ['  of which the screenshot (observe, PNG kept in the run folder)', 'loopScreenshot'],
    ['  of which the action (a pointer move: sends no input, no window lookup)', 'loopAction'],
    ['Deputy: one click through the worker, with the focused-window lookup', 'actClick'],
  ];
  const cell = (value: number | undefined): string => (value === undefined ? 'not installed' : `${value.toFixed(1)} ms`).padStart(14);
  const out: string[] = [
    `Desktop benchmark: median of ${RUNS} after ${WARMUP} warm-up rounds, Xvfb with Chromium showing a text page`,
    `(load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} cores: figures scale with the machine's load)`,
  ];
  out.push(`${''.padEnd(74)}${'1280x800'.padStart(14)}${'1920x1080'.padStart(14)}`);
  for (const [label, key, target] of rows) out.push(`${label.padEnd(74)}${cell(results[0]?.[key])}${cell(results[1]?.[key])}${target ? `   ${target}` : ''}`);
  out.push(`${'JPEG sent to the model'.padEnd(74)}${results.map((r) => `${(r.jpegKb ?? 0).toFixed(0)} KB`.padStart(14)).join('')}`);
  // The idle screen: the same loop, every screenshot sent beside unchanged ones left out (a note instead).
  const idle = (r: Figures): string => `${r.idleImages ?? 0}/${r.idleRequests ?? 0} img`.padStart(14);
  // Both idle runs end when the loop's stagnation check stops a task whose screen never changes.
  const idleAll = (r: Figures): string => `${r.idleImagesAll ?? 0}/${r.idleRequests ?? 0} img`.padStart(14);
  out.push(`${'Idle screen, model requests with an image: every shot sent'.padEnd(74)}${results.map(idleAll).join('')}`);
  out.push(`${'  unchanged screens left out (a note instead; sent again after 3 in a row)'.padEnd(74)}${results.map(idle).join('')}`);
  out.push(
    `${'  image bytes saved over the run'.padEnd(74)}${results.map((r) => `${((r.idleKbAll ?? 0) - (r.idleKb ?? 0)).toFixed(0)} KB`.padStart(14)).join('')}   (${results
      .map((r) => `${Math.round((100 * ((r.idleKbAll ?? 0) - (r.idleKb ?? 0))) / Math.max(1, r.idleKbAll ?? 0))}%`)
      .join(', ')} of the image bytes)`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv.includes('--measure')) await measure();
else await main();

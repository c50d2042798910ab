import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { findBrowser } from '../lib/find-browser';
import { extensionBrowserArgs } from '../lib/launch-browser';
import { serveRoutes } from '../../tests/e2e/support/static-server';
import { shop } from './agent-overhead';
import { type ProcessSample, samplePeakRss } from './process-tree';

/** The peer's version, pinned so figures from different days compare. */
export const STAGEHAND_VERSION = '4.4.0';

export interface PeerFigures {
  exitCode: number | null;
  /** From starting the peer's process to its first model call. */
  coldStartMs: number;
  overheadByKind: Record<string, number[]>;
  peakRssKb: number;
  /** The process tree when its memory peaked. */
  atPeak: ProcessSample[];
  inputChars: number;
  modelCalls: number;
  failedSteps: number;
}

/**
 * Stagehand, installed on first use into a cache outside the project (it is a benchmark peer, not a dependency: its
 * package asks for Node 22, and the project's own install must stay free of warnings). Returns its entry module, or
 * why it is not available (no registry, a failed install).
 */
export async function ensureStagehand(): Promise<{ entry: string } | { why: string }> {
  const dir = process.env.DEPUTY_BENCH_PEERS_DIR ?? join(homedir(), '.cache', 'deputy', 'bench-peers', `stagehand-${STAGEHAND_VERSION}`);
  const entry = join(dir, 'node_modules', '@browserbasehq', 'stagehand', 'dist', 'index.mjs');
  if (existsSync(entry)) return { entry };
  await mkdir(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', `@browserbasehq/stagehand@${STAGEHAND_VERSION}`];
  process.stderr.write(`installing the peer once: npm ${args.join(' ')}\n`);
  const result = await new Promise<{ code: number | null; err: string }>((resolve) => {
    const child = spawn(npm, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => resolve({ code: -1, err: String(error) }));
    child.on('close', (code) => resolve({ code, err }));
  });
  if (result.code !== 0 || !existsSync(entry)) return { why: `npm could not install @browserbasehq/stagehand@${STAGEHAND_VERSION} (${result.err.trim().split('\n').pop() ?? `exit ${result.code}`})` };
  return { entry };
}

/**
 * Runs the peer once on the same local shop and script as Deputy's run (scripts/bench/stagehand-peer.mjs) in its own
 * process, sampling the memory of its whole tree (Node, Chromium) as Deputy's is sampled.
 */
export async function measureStagehand(entry: string, steps: number): Promise<PeerFigures> {
  const site = await serveRoutes(shop());
  const nodeFlags = typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'undefined' ? ['--experimental-websocket'] : [];
  // Bundled to plain JavaScript first, so the peer's start carries no TypeScript loader (Deputy's CLI is prebuilt too).
  const out = await mkdtemp(join(tmpdir(), 'deputy-bench-peer-'));
  const script = join(out, 'stagehand-peer.mjs');
  await build({ entryPoints: [join(import.meta.dirname, 'stagehand-peer.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: script, logLevel: 'error' });
  const flags = await sharedBrowserFlags();
  const spawnedAt = Date.now();
  // Asynchronous on purpose: the shop is served from this process.
  const child = spawn(process.execPath, [...nodeFlags, script, entry, findBrowser(), site.url('/', 'shop.test'), String(steps), JSON.stringify(flags)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const memory = samplePeakRss(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const { peakRssKb, atPeak } = await memory.stop();
  await site.close();
  await rm(out, { recursive: true, force: true });
  const line = stdout.trim().split('\n').pop() ?? '';
  let parsed: { firstModelCallAt: number; timings: { kind: string; ms: number; ok: boolean }[]; promptChars: number; modelCalls: number };
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    throw new Error(`Stagehand's run ended with exit ${exitCode} and no figures: ${stderr.trim().slice(-400)}`);
  }
  const overheadByKind: Record<string, number[]> = {};
  for (const t of parsed.timings) (overheadByKind[t.kind] ??= []).push(t.ms);
  return {
    exitCode,
    coldStartMs: parsed.firstModelCallAt - spawnedAt,
    overheadByKind,
    peakRssKb,
    atPeak,
    inputChars: parsed.promptChars,
    modelCalls: parsed.modelCalls,
    failedSteps: parsed.timings.filter((t) => !t.ok).length,
  };
}

/**
 * The Chromium flags Deputy's launch gives the browser (puppeteer's defaults with Deputy's own, headless, the extension
 * loaded), apart from the profile folder, the first page and how the browser is driven: the peer's browser runs with
 * exactly these instead of its own defaults, so both sides start the same browser and differ only in what they open
 * in it. `--remote-allow-origins=*` is the peer's own (its CDP socket needs it; Deputy drives over a pipe).
 */
export async function sharedBrowserFlags(): Promise<string[]> {
  const { default: puppeteer } = await import('puppeteer-core');
  const args = puppeteer.defaultArgs({ headless: true, enableExtensions: true, args: extensionBrowserArgs('MAP *.test 127.0.0.1') });
  return [...args.filter((arg) => arg !== '--enable-automation' && arg.startsWith('--')), '--remote-allow-origins=*'];
}

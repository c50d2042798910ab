import { readdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { getEncoding } from 'js-tiktoken';
import { chromium, type Page } from 'playwright-core';
import { serveDirectory } from './bench/serve-directory';
import { LOOPBACK_ONLY_RULES } from './lib/host-rules';
import { baseArgs } from './lib/launch-browser';
import { findBrowser } from './lib/find-browser';
import { sharedPath } from './lib/shared-dir';

// Measures Deputy's snapshot against Playwright's AI snapshot on the saved pages of the corpus, in one headless
// Chromium with every non-loopback host unresolvable. Both are timed the same way: wall clock in Node around the one
// call that returns the text (a CDP round trip each), median of 5 runs after a warm-up.

const RUNS = 5;
const MARK = 'data-bench-numbered';

interface Probe {
  visible: number;
  covered: number;
  hiddenMarked: number;
  missing: string[];
}
type Bench = { deputyBench: { snapshot(mode: string): string; numbered(): Element[]; coverage(mark: string): Probe } };
const probeCoverage = (page: Page): Promise<Probe> =>
  page.evaluate((mark) => (globalThis as unknown as Bench).deputyBench.coverage(mark), MARK);

interface Measure {
  ms: number;
  tokens: number;
  numbered: number;
}

interface PageResult {
  page: string;
  viewport: Measure;
  whole: Measure & { coverage: number; visible: number; hiddenRefs: number; missing: string[] };
  playwright: Measure & { coverage: number | null; hiddenRefs: number | null };
}

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: sharedPath('corpus', 'pages') },
    json: { type: 'string' },
    only: { type: 'string' },
    'no-playwright-coverage': { type: 'boolean', default: false },
    /** Leave out the generated pathological pages (tests/fixtures/pages/perception/generated.html). */
    'no-generated': { type: 'boolean', default: false },
  },
});

/**
 * Pathological pages built by script at size (the same page the e2e test reads): one inline element with 10k text
 * runs, 50k elements, shadow roots and elements nested deeper than the walk goes, 200 frames.
 */
const GENERATED: Array<[name: string, query: string]> = [
  ['gen-runs-10k', 'shape=runs&n=10000'],
  ['gen-elements-50k', 'shape=elements&n=50000'],
  ['gen-shadow-250', 'shape=shadow&n=250'],
  ['gen-deep-1200', 'shape=deep&n=1200'],
  ['gen-frames-200', 'shape=frames&n=200'],
];

const encoder = getEncoding('o200k_base');
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function timed(run: () => Promise<string>): Promise<{ ms: number; text: string }> {
  let text = await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    text = await run();
    times.push(performance.now() - started);
  }
  return { ms: median(times), text };
}

function measure(ms: number, text: string, numbered: RegExp): Measure {
  return { ms, tokens: encoder.encode(text).length, numbered: text.match(numbered)?.length ?? 0 };
}

async function clearMarks(page: Page): Promise<void> {
  await page.evaluate((mark) => {
    const roots: Array<Document | ShadowRoot> = [document];
    for (let i = 0; i < roots.length; i += 1) {
      for (const el of Array.from((roots[i] as Document | ShadowRoot).querySelectorAll('*'))) {
        el.removeAttribute(mark);
        if (el.shadowRoot) roots.push(el.shadowRoot);
        try {
          const doc = (el as HTMLIFrameElement).contentDocument;
          if (doc) roots.push(doc);
        } catch {
          // Cross-origin frames are not marked.
        }
      }
    }
  }, MARK);
}

async function playwrightCoverage(page: Page, text: string): Promise<{ coverage: number; hiddenRefs: number }> {
  await clearMarks(page);
  const refs = [...text.matchAll(/\[ref=([a-z0-9]+)\]/g)].map((match) => match[1] as string);
  for (const ref of refs) {
    await page
      .getByRef(ref)
      .evaluate((el, mark) => el.setAttribute(mark, ''), MARK, { timeout: 2000 })
      .catch(() => undefined);
  }
  const probe = await probeCoverage(page);
  return { coverage: probe.visible ? probe.covered / probe.visible : 1, hiddenRefs: probe.hiddenMarked };
}

async function benchPage(page: Page, url: string, name: string, bundle: string): Promise<PageResult> {
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 }).catch(() => page.waitForLoadState('domcontentloaded'));
  await page.evaluate(bundle);
  const snap = (mode: string) => () => page.evaluate((m) => (globalThis as unknown as Bench).deputyBench.snapshot(m), mode);
  const deputyLine = /^\*?\[\d+\]/gm;
  const viewport = await timed(snap('viewport'));
  const whole = await timed(snap('page'));
  const pw = await timed(() => page.ariaSnapshot({ mode: 'ai' }));

  await clearMarks(page);
  await page.evaluate((mark) => {
    for (const el of (globalThis as unknown as Bench).deputyBench.numbered()) el.setAttribute(mark, '');
  }, MARK);
  const probe = await probeCoverage(page);
  const pwCoverage = values['no-playwright-coverage'] ? null : await playwrightCoverage(page, pw.text);
  return {
    page: name,
    viewport: measure(viewport.ms, viewport.text, deputyLine),
    whole: {
      ...measure(whole.ms, whole.text, deputyLine),
      coverage: probe.visible ? probe.covered / probe.visible : 1,
      visible: probe.visible,
      hiddenRefs: probe.hiddenMarked,
      missing: probe.missing,
    },
    playwright: {
      ...measure(pw.ms, pw.text, /\[ref=/g),
      coverage: pwCoverage?.coverage ?? null,
      hiddenRefs: pwCoverage?.hiddenRefs ?? null,
    },
  };
}

function pad(value: string | number, width: number): string {
  return String(value).padStart(width);
}

function printTable(results: PageResult[]): void {
  const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
  console.log(
    [
      'page'.padEnd(26),
      pad('vp ms', 7),
      pad('vp tok', 7),
      pad('vp #', 5),
      pad('pg ms', 7),
      pad('pg tok', 7),
      pad('pg #', 5),
      pad('cover', 7),
      pad('hidden', 6),
      pad('pw ms', 7),
      pad('pw tok', 7),
      pad('pw #', 5),
      pad('pw cov', 7),
      pad('pw hid', 6),
    ].join(' '),
  );
  for (const r of results) {
    console.log(
      [
        r.page.padEnd(26),
        pad(r.viewport.ms.toFixed(1), 7),
        pad(r.viewport.tokens, 7),
        pad(r.viewport.numbered, 5),
        pad(r.whole.ms.toFixed(1), 7),
        pad(r.whole.tokens, 7),
        pad(r.whole.numbered, 5),
        pad(pct(r.whole.coverage), 7),
        pad(r.whole.hiddenRefs, 6),
        pad(r.playwright.ms.toFixed(1), 7),
        pad(r.playwright.tokens, 7),
        pad(r.playwright.numbered, 5),
        pad(pct(r.playwright.coverage), 7),
        pad(r.playwright.hiddenRefs ?? '-', 6),
      ].join(' '),
    );
  }
}

function summarize(results: PageResult[]): Record<string, number> {
  const m = (pick: (r: PageResult) => number) => median(results.map(pick));
  const summary = {
    viewportMedianMs: m((r) => r.viewport.ms),
    viewportWorstMs: Math.max(...results.map((r) => r.viewport.ms)),
    viewportMedianTokens: m((r) => r.viewport.tokens),
    pageMedianMs: m((r) => r.whole.ms),
    pageWorstMs: Math.max(...results.map((r) => r.whole.ms)),
    pageMedianTokens: m((r) => r.whole.tokens),
    pageMinCoverage: Math.min(...results.map((r) => r.whole.coverage)),
    pageMedianCoverage: m((r) => r.whole.coverage),
    hiddenRefs: results.reduce((sum, r) => sum + r.whole.hiddenRefs, 0),
    playwrightMedianMs: m((r) => r.playwright.ms),
    playwrightMedianTokens: m((r) => r.playwright.tokens),
  };
  return {
    ...summary,
    viewportMsRatio: summary.viewportMedianMs / summary.playwrightMedianMs,
    pageMsRatio: summary.pageMedianMs / summary.playwrightMedianMs,
    pageTokensRatio: summary.pageMedianTokens / summary.playwrightMedianTokens,
  };
}

async function main(): Promise<void> {
  const corpus = resolve(values.corpus);
  const names = (await readdir(corpus, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && (!values.only || entry.name.includes(values.only)))
    .map((entry) => entry.name)
    .sort();
  const bundled = await build({
    entryPoints: [resolve(import.meta.dirname, 'bench/snapshot-page-entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome116',
    minify: true,
  });
  const bundle = bundled.outputFiles[0]?.text ?? '';
  const server = await serveDirectory({ '/': corpus, '/generated/': resolve('tests/fixtures/pages/perception') });
  const generated = values['no-generated'] ? [] : GENERATED.filter(([name]) => !values.only || name.includes(values.only));
  const browser = await chromium.launch({ executablePath: findBrowser(), headless: true, args: baseArgs({ hostRules: LOOPBACK_ONLY_RULES }) });
  const results: PageResult[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    for (const name of names) {
      const page = await context.newPage();
      results.push(await benchPage(page, `${server.origin}/${name}/index.html`, name, bundle));
      await page.close();
      process.stderr.write('.');
    }
    for (const [name, query] of generated) {
      const page = await context.newPage();
      results.push(await benchPage(page, `${server.origin}/generated/generated.html?${query}`, name, bundle));
      await page.close();
      process.stderr.write('.');
    }
  } finally {
    await browser.close();
    await server.close();
  }
  process.stderr.write('\n');
  console.log(`Deputy: extension/content snapshot code bundled with esbuild (${(bundle.length / 1024).toFixed(1)} KiB), injected into each page.`);
  console.log(`Playwright: page.ariaSnapshot({ mode: 'ai' }), playwright-core, same browser. Median of ${RUNS} runs after a warm-up; tokens: o200k_base.`);
  console.log('vp = Deputy viewport mode, pg = Deputy whole-page mode, pw = Playwright; # = numbered elements; cover = visible interactive elements numbered; hidden = numbers on hidden elements.\n');
  printTable(results);
  const summary = summarize(results);
  console.log('');
  for (const [key, value] of Object.entries(summary)) console.log(`${key.padEnd(24)} ${Number.isInteger(value) ? value : value.toFixed(3)}`);
  for (const r of results.filter((x) => x.whole.missing.length > 0).slice(0, 5)) {
    console.log(`\nnot numbered on ${r.page}:\n  ${r.whole.missing.join('\n  ')}`);
  }
  if (values.json) await writeFile(values.json, JSON.stringify({ summary, results }, null, 2));
}

await main();

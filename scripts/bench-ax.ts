import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { axMatrixPage } from '../tests/fixtures/pages/ax-matrix';
import { bundleAxEntry, compareAx, describeMismatch, totals, type AxPageReport } from './bench/ax-compare';
import { serveDirectory } from './bench/serve-directory';
import { findBrowser } from './lib/find-browser';
import { LOOPBACK_ONLY_RULES } from './lib/host-rules';
import { baseArgs } from './lib/launch-browser';
import { sharedMissing, sharedPath } from './lib/shared-dir';

// How far Deputy's snapshot agrees with Chromium's accessibility tree: for every numbered control of every page of
// ../shared/corpus and of the generated matrix page, its role, name and states beside Chromium's for the same node.
// `npm run bench:ax` prints the agreement per page and in all; `--show N` lists N disagreements per page.

const { values } = parseArgs({ options: { show: { type: 'string', default: '0' }, json: { type: 'string' }, only: { type: 'string' } } });

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((n / d) * 100).toFixed(1)}%`);

async function main(): Promise<void> {
  const gen = await mkdtemp(join(tmpdir(), 'deputy-ax-'));
  await writeFile(join(gen, 'index.html'), axMatrixPage());
  const missing = sharedMissing('corpus/pages');
  if (missing) console.log(`The corpus is left out: ${missing}`);
  const mounts: Record<string, string> = { '/gen/': gen, ...(missing ? {} : { '/corpus/': sharedPath('corpus', 'pages') }) };
  const server = await serveDirectory(mounts);
  const pages: Array<[name: string, path: string]> = [['generated-matrix', '/gen/index.html']];
  if (!missing) for (const name of (await readdir(sharedPath('corpus', 'pages'))).sort()) pages.push([name, `/corpus/${name}/index.html`]);
  const chosen = values.only ? pages.filter(([name]) => name.includes(values.only ?? '')) : pages;
  const browser = await puppeteer.launch({ executablePath: findBrowser(), headless: true, args: baseArgs({ hostRules: LOOPBACK_ONLY_RULES }) });
  const bundle = await bundleAxEntry();
  const reports: Array<[string, AxPageReport]> = [];
  try {
    console.log(`${'page'.padEnd(26)} ${'controls'.padStart(8)} ${'role'.padStart(7)} ${'name'.padStart(7)} ${'states'.padStart(7)} ${'all'.padStart(7)}`);
    for (const [name, path] of chosen) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(server.url(path), { waitUntil: 'load' });
      const report = await compareAx(page, bundle);
      await page.close();
      reports.push([name, report]);
      const t = totals([report]);
      console.log(`${name.padEnd(26)} ${String(t.controls).padStart(8)} ${pct(t.role, t.controls).padStart(7)} ${pct(t.name, t.controls).padStart(7)} ${pct(t.states, t.controls).padStart(7)} ${pct(t.all, t.controls).padStart(7)}`);
      const show = Number(values.show);
      if (show > 0) for (const c of report.controls.filter((x) => !(x.role && x.name && x.states)).slice(0, show)) console.log(`    ${describeMismatch(c)}`);
    }
    const t = totals(reports.map(([, r]) => r));
    console.log(`${'all pages'.padEnd(26)} ${String(t.controls).padStart(8)} ${pct(t.role, t.controls).padStart(7)} ${pct(t.name, t.controls).padStart(7)} ${pct(t.states, t.controls).padStart(7)} ${pct(t.all, t.controls).padStart(7)}`);
    if (values.json) await writeFile(values.json, JSON.stringify({ totals: t, pages: reports.map(([page, r]) => ({ page, ...totals([r]), unmatched: r.unmatched })) }, null, 2));
  } finally {
    await browser.close();
    await server.close();
    await rm(gen, { recursive: true, force: true });
  }
}

await main();

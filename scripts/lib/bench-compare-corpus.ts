import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { judgeDocument } from '../../native-host/documents/judge-document';
import { corpusFiles, corpusPresent, CORPUS_ABSENT } from '../../tests/fixtures/documents/corpus';

/**
 * The corpus half of `npm run bench:compare`: every file of the office corpus in the shared folder, one after the other in this
 * process, timed twice: the floor (the file unzipped with JSZip and every XML part parsed with the same parser, the
 * result unused) and `deputy compare` of the file against itself as template (both sides read, rules learned, every
 * check run). Files per second over the kind, and the 90th percentile per file, side by side with their ratio.
 */
const p90 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] ?? 0;
};

export async function benchCorpus(floorOf: (data: Buffer) => Promise<void>): Promise<string> {
  if (!corpusPresent()) return `corpus: skipped (${CORPUS_ABSENT})\n`;
  const rows = new Map<string, { floor: number[]; compare: number[]; refused: number }>();
  const files = corpusFiles();
  for (const [index, file] of files.entries()) {
    if (index % 50 === 0) process.stderr.write(`corpus: ${index} of ${files.length} files...\n`);
    const entry = rows.get(file.kind) ?? { floor: [], compare: [], refused: 0 };
    rows.set(file.kind, entry);
    const data = readFileSync(file.path);
    let started = performance.now();
    try {
      await floorOf(data);
    } catch {
      // A file the libraries cannot open has no floor; deputy's clear refusal of it is counted below.
    }
    const floor = performance.now() - started;
    started = performance.now();
    try {
      await judgeDocument(file.path, file.path);
    } catch {
      entry.refused += 1;
      continue;
    }
    entry.floor.push(floor);
    entry.compare.push(performance.now() - started);
  }
  const header = ['kind', 'files', 'refused', 'floor files/s', 'compare files/s', 'x floor', 'floor p90', 'compare p90', 'x floor'];
  const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
  const table = [...rows].map(([kind, entry]) => {
    const floorRate = entry.floor.length / (sum(entry.floor) / 1000);
    const compareRate = entry.compare.length / (sum(entry.compare) / 1000);
    return [
      kind,
      String(entry.floor.length),
      String(entry.refused),
      floorRate.toFixed(1),
      compareRate.toFixed(1),
      `${(floorRate / compareRate).toFixed(1)}x`,
      `${Math.round(p90(entry.floor))} ms`,
      `${Math.round(p90(entry.compare))} ms`,
      `${(p90(entry.compare) / Math.max(p90(entry.floor), 0.001)).toFixed(1)}x`,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => row[column]!.length)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [
    `office corpus (${files.length} files, one at a time; Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}):`,
    '',
    line(header),
    ...table.map(line),
    '',
    'floor: JSZip unzip and fast-xml-parser on every XML part of the file, result unused. compare: deputy compare of the',
    'file against itself as template (the file read twice, rules learned, every check). x floor: how many times slower.',
    'refused: files deputy declines with a clear error (encrypted, damaged, not Office); not in the timings.',
    '',
  ].join('\n');
}

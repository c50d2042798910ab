import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { CORPUS_ABSENT, CORPUS_DIR, corpusFiles, corpusPresent } from '../../tests/fixtures/documents/corpus';
import { runFilesTimed, type FileOutcome } from './timed-file-runner';

/**
 * The corpus half of `npm run bench:compare`: every file of the office corpus in the shared folder, one after the
 * other in a worker thread, timed twice: the floor (the file unzipped with JSZip and every XML part parsed with the
 * same parser, the result unused) and `deputy compare` of the file against itself as template (both sides read, rules
 * learned, every check run). Files per second over the kind, and the 90th percentile per file, side by side with their
 * ratio. A file that takes longer than the per-file limit is ended and listed by name, and the bench goes on.
 */
const p90 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] ?? 0;
};

export const DEFAULT_FILE_TIMEOUT_MS = 30_000;
const WORKER = new URL('./bench-compare-worker.ts', import.meta.url);

interface KindRow {
  floor: number[];
  compare: number[];
  refused: number;
  timedOut: number;
}

/** The corpus table from each file's outcome, and the files that hung or crashed, by name. */
export function corpusReport(kinds: ReadonlyArray<{ kind: string; outcome: FileOutcome }>, header: string, timeoutMs: number): string {
  const rows = new Map<string, KindRow>();
  const stalled: string[] = [];
  for (const { kind, outcome } of kinds) {
    const entry = rows.get(kind) ?? { floor: [], compare: [], refused: 0, timedOut: 0 };
    rows.set(kind, entry);
    if ('refused' in outcome) entry.refused += 1;
    else if ('timedOutMs' in outcome || 'crashed' in outcome) {
      entry.timedOut += 1;
      const name = relative(CORPUS_DIR, outcome.path).startsWith('..') ? outcome.path : relative(CORPUS_DIR, outcome.path);
      stalled.push(`  ${name}: ${'crashed' in outcome ? `crashed (${outcome.crashed})` : `did not finish within ${Math.round(outcome.timedOutMs / 1000)} s`}`);
    } else {
      entry.floor.push(outcome.floorMs);
      entry.compare.push(outcome.compareMs);
    }
  }
  const columns = ['kind', 'files', 'refused', 'timed out', 'floor files/s', 'compare files/s', 'x floor', 'floor p90', 'compare p90', 'x floor'];
  const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
  const table = [...rows].map(([kind, entry]) => {
    const floorRate = entry.floor.length / (sum(entry.floor) / 1000);
    const compareRate = entry.compare.length / (sum(entry.compare) / 1000);
    return [
      kind,
      String(entry.floor.length),
      String(entry.refused),
      String(entry.timedOut),
      floorRate.toFixed(1),
      compareRate.toFixed(1),
      `${(floorRate / compareRate).toFixed(1)}x`,
      `${Math.round(p90(entry.floor))} ms`,
      `${Math.round(p90(entry.compare))} ms`,
      `${(p90(entry.compare) / Math.max(p90(entry.floor), 0.001)).toFixed(1)}x`,
    ];
  });
  const widths = columns.map((title, column) => Math.max(title.length, ...table.map((row) => row[column]!.length)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [
    header,
    '',
    line(columns),
    ...table.map(line),
    '',
    'floor: JSZip unzip and fast-xml-parser on every XML part of the file, result unused. compare: deputy compare of the',
    'file against itself as template (the file read twice, rules learned, every check). x floor: how many times slower.',
    'refused: files deputy declines with a clear error (encrypted, damaged, not Office); not in the timings.',
    `timed out: files not finished within ${Math.round(timeoutMs / 1000)} s (--file-timeout), or whose worker crashed; ended, named below, not in the timings.`,
    ...(stalled.length > 0 ? ['', `Files that did not finish (${stalled.length}):`, ...stalled] : []),
    '',
  ].join('\n');
}

export async function benchCorpus(timeoutMs = DEFAULT_FILE_TIMEOUT_MS): Promise<string> {
  if (!corpusPresent()) return `corpus: skipped (${CORPUS_ABSENT})\n`;
  const files = corpusFiles();
  const outcomes = await runFilesTimed(
    files.map((file) => file.path),
    {
      worker: WORKER,
      timeoutMs,
      onFile: (index, outcome) => {
        if ('timedOutMs' in outcome) process.stderr.write(`corpus: ${relative(CORPUS_DIR, outcome.path)} did not finish within ${Math.round(timeoutMs / 1000)} s; going on\n`);
        if ((index + 1) % 50 === 0) process.stderr.write(`corpus: ${index + 1} of ${files.length} files...\n`);
      },
    },
  );
  const header = `office corpus (${files.length} files, one at a time in a worker thread; Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}):`;
  return corpusReport(
    outcomes.map((outcome, index) => ({ kind: files[index]?.kind ?? '?', outcome })),
    header,
    timeoutMs,
  );
}

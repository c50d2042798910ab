import ExcelJS from 'exceljs';
import { cpus, loadavg } from 'node:os';
import { judgeDocument, judgeModel, learnRules, readDocument } from '../native-host/documents/judge-document';
import { buildDeck } from '../tests/fixtures/documents/deck-builder';
import { companies } from '../tests/fixtures/documents/sample-companies';
import { tempFiles } from '../tests/fixtures/documents/temp-files';
import { buildWorkbook } from '../tests/fixtures/documents/workbook-builder';
import { benchCorpus, DEFAULT_FILE_TIMEOUT_MS } from './lib/bench-compare-corpus';
import { medianTime } from './lib/median-time';
import { unzipAndParse } from './lib/unzip-and-parse';

/**
 * `npm run bench:compare`: how long `deputy compare` takes on a 40-slide deck and a 10,000-row workbook, next to the
 * floor measured in the same run: unzipping the same file and parsing every XML part with the same parser, doing
 * nothing with the result. For the workbook, exceljs's own load (which the reader builds on) is shown too. Figures
 * are medians of 5 runs after one warm-up. Then the real-world corpus (the office corpus in the shared folder, when present): files
 * per second and the 90th percentile per file, beside the same floor, with the ratio; a file that takes longer than
 * --file-timeout seconds (default 30) is ended and named, and the bench goes on.
 */
const RUNS = 5;

const median = (work: () => Promise<unknown>): Promise<number> => medianTime(work, RUNS, 1);

/** `--file-timeout <seconds>`: how long one corpus file may take before it is ended and named (default 30). */
function fileTimeoutMs(argv: readonly string[]): number {
  const at = argv.indexOf('--file-timeout');
  if (at < 0) return DEFAULT_FILE_TIMEOUT_MS;
  const seconds = Number(argv[at + 1]);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    process.stderr.write(`bench:compare: --file-timeout needs a number of seconds above 0 (got ${argv[at + 1] ?? 'nothing'}), for example --file-timeout 30\n`);
    process.exit(2);
  }
  return seconds * 1000;
}
const timeoutMs = fileTimeoutMs(process.argv.slice(2));

const files = tempFiles('deputy-bench-compare-');
try {
  process.stderr.write('building the documents...\n');
  const deckData = await buildDeck({ companies: companies(38) });
  const bookData = await buildWorkbook({ companies: companies(10_000) });
  const deck = files.write('deck-40.pptx', deckData);
  const book = files.write('book-10000.xlsx', bookData);
  const deckTemplate = files.write('deck-template.pptx', await buildDeck());
  const bookTemplate = files.write('book-template.xlsx', await buildWorkbook());
  const slides = (await readDocument(deck)).kind === 'pptx' ? 40 : 0;
  const rows = [];
  for (const [label, path, data, template] of [
    [`${slides}-slide deck (.pptx)`, deck, deckData, deckTemplate],
    ['10,000-row workbook (.xlsx)', book, bookData, bookTemplate],
  ] as const) {
    process.stderr.write(`measuring ${label}...\n`);
    const rules = await learnRules(template);
    const floor = await median(() => unzipAndParse(data));
    const exceljs = path === book ? await median(async () => new ExcelJS.Workbook().xlsx.load(data as unknown as ExcelJS.Buffer)) : undefined;
    const read = await median(() => readDocument(path));
    const model = await readDocument(path);
    const check = await median(() => Promise.resolve(judgeModel(model, rules)));
    const full = await median(() => judgeDocument(path, template));
    const findings = (await judgeDocument(path, template)).findings.length;
    rows.push({ label, mb: data.length / 1024 / 1024, floor, exceljs, read, check, full, findings });
  }
  const ms = (value: number | undefined): string => (value === undefined ? '-' : `${Math.round(value)} ms`);
  const header = ['document', 'size', 'floor: unzip + parse', 'exceljs load', 'deputy read', 'checks', 'deputy compare (with template)', 'x floor'];
  const table = rows.map((row) => [row.label, `${row.mb.toFixed(1)} MB`, ms(row.floor), ms(row.exceljs), ms(row.read), ms(row.check), ms(row.full), `${(row.full / row.floor).toFixed(1)}x`]);
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => row[column]!.length)));
  const line = (cells: string[]): string => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  process.stdout.write(`deputy compare benchmark: medians of ${RUNS} runs after a warm-up; Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}\n\n`);
  process.stdout.write(`${line(header)}\n${table.map(line).join('\n')}\n\n`);
  process.stdout.write('floor: JSZip unzip of the same file and fast-xml-parser on every XML part, result unused.\n');
  process.stdout.write('deputy read: the normalized model (PowerPoint styles resolved through layout, master and theme; exceljs for workbooks).\n');
  process.stdout.write('checks: structure, formatting and content checks on that model. deputy compare: both files read, rules learned, checks.\n');
  for (const row of rows) process.stdout.write(`${row.label}: ${row.findings} findings against its template.\n`);
  process.stdout.write(`\n${await benchCorpus(timeoutMs)}`);
} finally {
  files.cleanup();
}

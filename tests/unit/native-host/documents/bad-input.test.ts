import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { judgeDocument } from '../../../../native-host/documents/judge-document';
import { openPackage } from '../../../../native-host/documents/open-package';
import { loadRules } from '../../../../native-host/documents/rules';
import { buildDeck } from '../../../fixtures/documents/deck-builder';
import { buildReport } from '../../../fixtures/documents/report-builder';
import { tempFiles } from '../../../fixtures/documents/temp-files';
import { buildWorkbook } from '../../../fixtures/documents/workbook-builder';

/** Every file that cannot be judged gets an AppError that names it and says what to do; nothing is half-read. */
const files = tempFiles();
const FIXTURES = join(import.meta.dirname, '../../../fixtures/documents');
let deck = '';
let deckBytes: Buffer;

beforeAll(async () => {
  deckBytes = await buildDeck();
  deck = files.write('deck.pptx', deckBytes);
});
afterAll(() => files.cleanup());

async function failure(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('bad input to the comparison', () => {
  it('a missing file', async () => {
    const error = await failure(judgeDocument(join(files.dir, 'nope.pptx'), deck));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe(`${join(files.dir, 'nope.pptx')} cannot be read (ENOENT): check the path.`);
  });

  it('an empty file', async () => {
    const error = await failure(judgeDocument(files.write('empty.pptx', ''), deck));
    expect(error.message).toContain('empty.pptx is empty (0 bytes): the service that made it wrote nothing');
  });

  it('a truncated file, random bytes, a PDF, and a zip that is not an Office document', async () => {
    expect((await failure(judgeDocument(files.write('cut.pptx', deckBytes.subarray(0, deckBytes.length / 2)), deck))).message).toContain('cut.pptx is corrupt: its zip package is truncated or damaged');
    expect((await failure(judgeDocument(files.write('noise.pptx', Buffer.from('not a document at all, just text')), deck))).message).toContain('noise.pptx is not an Office document');
    expect((await failure(judgeDocument(files.write('doc.pdf', '%PDF-1.7\n...'), deck))).message).toContain('doc.pdf is a PDF, not an Office document');
    const zip = new JSZip().file('readme.txt', 'hello');
    const plainZip = files.write('plain.pptx', await zip.generateAsync({ type: 'nodebuffer' }));
    expect((await failure(judgeDocument(plainZip, deck))).message).toContain('plain.pptx is a zip file but not a PowerPoint, Excel or Word document');
  });

  it('a damaged XML part inside an intact zip', async () => {
    const zip = await JSZip.loadAsync(deckBytes);
    const slide = await zip.file('ppt/slides/slide2.xml')!.async('string');
    zip.file('ppt/slides/slide2.xml', slide.slice(0, slide.length - 200));
    const error = await failure(judgeDocument(files.write('damaged.pptx', await zip.generateAsync({ type: 'nodebuffer' })), deck));
    expect(error.message).toMatch(/damaged\.pptx is corrupt: its part ppt\/slides\/slide2\.xml is not well-formed XML \(.+\)\. Re-create the file\./);
  });

  it('a workbook whose sheet part is cut short', async () => {
    const zip = await JSZip.loadAsync(await buildWorkbook());
    const sheet = await zip.file('xl/worksheets/sheet2.xml')!.async('string');
    zip.file('xl/worksheets/sheet2.xml', sheet.slice(0, sheet.length / 2));
    const error = await failure(judgeDocument(files.write('damaged.xlsx', await zip.generateAsync({ type: 'nodebuffer' })), files.write('good.xlsx', await buildWorkbook())));
    expect(error.message).toMatch(/damaged\.xlsx is corrupt: its part xl\/worksheets\/sheet2\.xml is not well-formed XML \(.+\)\. Re-create the file\./);
  });

  it('a password-protected workbook (made by LibreOffice) and a 1997-2003 binary file', async () => {
    const encrypted = await failure(judgeDocument(join(FIXTURES, 'encrypted.xlsx'), join(FIXTURES, 'encrypted.xlsx')));
    expect(encrypted.message).toContain('encrypted.xlsx is encrypted (password protected), so it cannot be read: save a copy without a password');
    const legacy = await failure(judgeDocument(join(FIXTURES, 'legacy.xls'), deck));
    expect(legacy.message).toContain('legacy.xls is a legacy binary Office file (.ppt, .xls or .doc, the 1997-2003 format): save it as .pptx, .xlsx or .docx');
  });

  it('a huge file is refused before it is read', async () => {
    const huge = files.write('huge.pptx', '');
    truncateSync(huge, 101 * 1024 * 1024);
    const error = await failure(judgeDocument(huge, deck));
    expect(error.code).toBe('too_large');
    expect(error.message).toContain('huge.pptx is 101 MB, above the 100 MB limit for one document');
    expect(error.message).toContain('--max-size');
  });

  it('a zip bomb is refused from its table of contents, before anything is inflated', async () => {
    // Claims 4 GB unpacked for one part: patch the central directory's size field, as a crafted file would.
    const bytes = Buffer.from(deckBytes);
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(0xfffffff0, central + 24);
    const error = await failure(openPackage(files.write('bomb.pptx', bytes)));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/bomb\.pptx would unpack to \d+ MB, above the 512 MB limit: it is either a zip bomb/);
    const small = await failure(openPackage(deck, { maxFileBytes: 10 * 1024 * 1024, maxUnpackedBytes: 1000 }));
    expect(small.message).toContain('above the 1 KB limit');
  });

  it('a template of another kind', async () => {
    const workbook = files.write('book.xlsx', await buildWorkbook());
    const error = await failure(judgeDocument(deck, workbook));
    expect(error.message).toBe(`The output ${deck} is a PowerPoint deck (.pptx) but the template ${workbook} is an Excel workbook (.xlsx): compare documents of the same kind.`);
    const report = files.write('report.docx', await buildReport());
    expect((await failure(judgeDocument(report, deck))).message).toContain('is a Word document (.docx) but the template');
  });

  it('rules files: unreadable, not JSON, unknown keys, bad values, and rules for another kind', async () => {
    expect(() => loadRules(join(files.dir, 'none.json'))).toThrow(`Cannot read the rules file ${join(files.dir, 'none.json')} (ENOENT): check the path.`);
    expect(() => loadRules(files.write('broken.json', '{ "pptx": '))).toThrow(/is not valid JSON/);
    expect(() => loadRules(files.write('typo.json', JSON.stringify({ pptx: { kinds: { COMPANY: { titel: { size: 28 } } } } })))).toThrow(/does not match the rules format: pptx\.kinds\.COMPANY: Unrecognized key: "titel"/);
    expect(() => loadRules(files.write('color.json', JSON.stringify({ pptx: { kinds: { COMPANY: { title: { color: 'navy' } } } } })))).toThrow(/pptx\.kinds\.COMPANY\.title\.color: expected a colour as RRGGBB/);
    const error = await failure(judgeDocument(deck, undefined, { kind: 'xlsx' }));
    expect(error.message).toContain('The rules are for an Excel workbook (.xlsx), but');
  });
});

/**
 * A plain-text PDF (PDF 1.4, A4, the standard Helvetica font, WinAnsi encoding): enough for a case file a user keeps
 * or sends to their bank, with no library and nothing fetched. Lines are wrapped to the page width and flow onto as
 * many pages as they need. Characters the standard font cannot draw are shown as "?" and the document says so once
 * (the Markdown export keeps them).
 */

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 50;
const SIZE = 10;
const LEADING = 13;
/** Helvetica at 10 pt averages ~5 pt a character: 95 characters fill the 495 pt text width. */
const WIDTH_CHARS = 95;
const LINES_PER_PAGE = Math.floor((PAGE_H - 2 * MARGIN) / LEADING);

/** WinAnsi (cp1252) codes of the characters above Latin-1's range that it has. */
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
  '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
  '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** The byte the font draws for a character, or null when it has none. */
function winAnsi(char: string): number | null {
  const code = char.codePointAt(0)!;
  if (code === 0x09) return 0x20;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return WIN_ANSI_EXTRA[char] ?? null;
}

/** Wraps one line at spaces to the page width (a word longer than a line is cut). */
export function wrapLine(line: string, width = WIDTH_CHARS): string[] {
  const out: string[] = [];
  let rest = line;
  while ([...rest].length > width) {
    const chars = [...rest];
    let cut = chars.lastIndexOf(' ', width);
    if (cut <= 0) cut = width;
    out.push(chars.slice(0, cut).join('').trimEnd());
    rest = chars.slice(cut).join('').trimStart();
  }
  out.push(rest);
  return out;
}

/** A PDF string literal: each character as its font byte, with `(`, `)` and `\` escaped. */
function literal(text: string, lost: { count: number }): string {
  let out = '';
  for (const char of text) {
    const byte = winAnsi(char);
    if (byte === null) {
      lost.count++;
      out += '?';
    } else if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte < 0x80) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `(${out})`;
}

/** The PDF's bytes for a text: a title line in bold, then the text, wrapped and paged. */
export function textPdf(title: string, text: string): Uint8Array<ArrayBuffer> {
  const lost = { count: 0 };
  const body = text.split(/\r?\n/).flatMap((line) => wrapLine(line));
  // Count what the font cannot draw first, so the note can lead the document.
  for (const line of [title, ...body]) literal(line, lost);
  const lines: { text: string; bold: boolean }[] = [{ text: title, bold: true }, { text: '', bold: false }];
  if (lost.count > 0) lines.push({ text: `(${lost.count} characters this PDF's font cannot show are drawn as "?"; the Markdown export keeps them.)`, bold: false }, { text: '', bold: false });
  for (const line of body) lines.push({ text: line, bold: false });

  const pages: string[] = [];
  const ignore = { count: 0 };
  for (let start = 0; start < lines.length; start += LINES_PER_PAGE) {
    const ops: string[] = ['BT', `${MARGIN} ${PAGE_H - MARGIN - SIZE} Td`, `${LEADING} TL`];
    let font = '';
    for (const line of lines.slice(start, start + LINES_PER_PAGE)) {
      const want = line.bold ? '/F2' : '/F1';
      if (want !== font) ops.push(`${want} ${SIZE} Tf`);
      font = want;
      ops.push(`${literal(line.text, ignore)} Tj T*`);
    }
    ops.push('ET');
    pages.push(ops.join('\n'));
  }

  // Objects: 1 catalog, 2 pages, 3 regular font, 4 bold font, then a page and its content stream for each page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((content, i) => {
    const id = pageIds[i]!;
    objects[id] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });

  // Every character written is one byte (escapes are ASCII), so string lengths are byte offsets.
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i) & 0xff;
  return bytes;
}

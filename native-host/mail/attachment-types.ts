import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { ATTACHMENT_TYPES, type AttachmentType } from '../../shared/protocol/mail-protocol';

const MIME_TYPES: Record<string, AttachmentType> = {
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/pdf': 'pdf',
  'text/csv': 'csv',
};

const LABELS: Record<AttachmentType, string> = {
  pptx: 'PowerPoint',
  xlsx: 'Excel',
  docx: 'Word',
  pdf: 'PDF',
  csv: 'CSV',
};

/** The file type a name claims by its extension: one of ours, another (".exe"), or none. */
export function extensionOf(name: string): string {
  return extname(name).slice(1).toLowerCase();
}

export function asAttachmentType(extension: string): AttachmentType | undefined {
  return (ATTACHMENT_TYPES as readonly string[]).includes(extension) ? (extension as AttachmentType) : undefined;
}

/** The type a part's Content-Type names, for attachments sent without a file name. */
export function typeFromContentType(contentType: string): AttachmentType | undefined {
  return MIME_TYPES[contentType.toLowerCase().split(';', 1)[0]?.trim() ?? ''];
}

export const allowedList = (types: readonly AttachmentType[]): string => types.map((type) => `.${type}`).join(', ');

/** The OOXML part that every document of a type has; a ZIP without it is not that document. */
const OOXML_MAIN_PART: Partial<Record<AttachmentType, string>> = { pptx: 'ppt/', xlsx: 'xl/', docx: 'word/' };

/**
 * Names of the entries in a ZIP's central directory, read from the end of the file without unpacking anything.
 * Undefined when the file has no readable directory (not a ZIP, truncated, or ZIP64, which no Office file needs at
 * the sizes saved here).
 */
async function zipEntryNames(path: string, size: number): Promise<string[] | undefined> {
  const handle = await open(path, 'r');
  try {
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0 || eocd + 22 > tail.length) return undefined;
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (directoryOffset === 0xffffffff || directoryOffset + directorySize > size) return undefined;
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const names: string[] = [];
    let at = 0;
    for (let index = 0; index < entries && at + 46 <= directory.length; index += 1) {
      if (directory.readUInt32LE(at) !== 0x02014b50) return undefined;
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      names.push(directory.toString('utf8', at + 46, at + 46 + nameLength));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await handle.close();
  }
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const BINARY_MAGIC = [
  Buffer.from('PK\x03\x04'),
  Buffer.from('%PDF'),
  Buffer.from('MZ'),
  Buffer.from('\x7fELF'),
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0]),
];

/**
 * Whether a saved file's content is what its extension says, checked where it is cheap: an Office file is a ZIP
 * holding its main folder (ppt/, xl/, word/), a PDF starts with %PDF- (within its first KB, as readers allow), and a
 * CSV is text (no NUL bytes, no executable or archive signature). Returns why not, or undefined when it fits.
 */
export async function contentMismatch(path: string, size: number, type: AttachmentType): Promise<string | undefined> {
  const head = await readHead(path, 4096);
  const label = LABELS[type];
  if (type === 'pdf')
    return head.subarray(0, 1024).includes('%PDF-') ? undefined : `the content is not a PDF (no %PDF- header)`;
  if (type === 'csv') {
    if (BINARY_MAGIC.some((magic) => head.subarray(0, magic.length).equals(magic)))
      return 'the content is a binary file, not CSV text';
    return head.includes(0) ? 'the content is binary (NUL bytes), not CSV text' : undefined;
  }
  if (!head.subarray(0, 4).equals(Buffer.from('PK\x03\x04')))
    return `the content is not a ${label} file (not a ZIP package)`;
  const names = await zipEntryNames(path, size);
  const folder = OOXML_MAIN_PART[type] ?? '';
  if (names === undefined) return `the content is not a readable ${label} file (damaged ZIP directory)`;
  return names.some((name) => name.startsWith(folder))
    ? undefined
    : `the content is a ZIP without ${folder}, not a ${label} file`;
}

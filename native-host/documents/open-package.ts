import { readFile, stat } from 'node:fs/promises';
import type JSZip from 'jszip';
import { AppError } from '../../shared/errors';
import { readZipDirectory } from './zip-directory';

export type DocumentKind = 'pptx' | 'xlsx' | 'docx';

export interface PackageLimits {
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Largest total of unpacked parts, in bytes: guards against zip bombs. */
  maxUnpackedBytes: number;
}

export const DEFAULT_LIMITS: PackageLimits = { maxFileBytes: 100 * 1024 * 1024, maxUnpackedBytes: 512 * 1024 * 1024 };

export interface OfficePackage {
  path: string;
  kind: DocumentKind;
  bytes: number;
  buffer: Buffer;
  /** The unzipped package, loaded on first use (the Excel reader unzips by itself). */
  zip: () => Promise<JSZip>;
}

const MAIN_PART: Record<DocumentKind, string> = {
  pptx: 'ppt/presentation.xml',
  xlsx: 'xl/workbook.xml',
  docx: 'word/document.xml',
};
export const KIND_LABEL: Record<DocumentKind, string> = {
  pptx: 'PowerPoint deck (.pptx)',
  xlsx: 'Excel workbook (.xlsx)',
  docx: 'Word document (.docx)',
};
export const aKind = (kind: DocumentKind): string => `${kind === 'xlsx' ? 'an' : 'a'} ${KIND_LABEL[kind]}`;
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const megabytes = (bytes: number): string =>
  bytes < 1024 * 1024
    ? `${Math.ceil(bytes / 1024)} KB`
    : `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

function badInput(path: string, problem: string, cause?: unknown): AppError {
  return new AppError('bad_request', `${path} ${problem}`, cause === undefined ? {} : { cause });
}

/** Explains a file that is not an OOXML zip: encrypted, a 1997-2003 binary file, a PDF, or something else. */
function notAPackage(path: string, data: Buffer): AppError {
  if (data.subarray(0, 8).equals(CFB_MAGIC)) {
    // Password-protected OOXML files are OLE compound files holding these two streams (MS-OFFCRYPTO).
    if (
      data.includes(Buffer.from('EncryptedPackage', 'utf16le')) ||
      data.includes(Buffer.from('EncryptionInfo', 'utf16le'))
    ) {
      return badInput(
        path,
        'is encrypted (password protected), so it cannot be read: save a copy without a password (File > Info > Protect > remove the password) and compare that.',
      );
    }
    return badInput(
      path,
      'is a legacy binary Office file (.ppt, .xls or .doc, the 1997-2003 format): save it as .pptx, .xlsx or .docx and compare that.',
    );
  }
  if (data.subarray(0, 5).toString('latin1') === '%PDF-')
    return badInput(path, 'is a PDF, not an Office document: compare the .pptx, .xlsx or .docx it was made from.');
  return badInput(
    path,
    'is not an Office document: it does not start like a .pptx, .xlsx or .docx package. It may be corrupt or truncated; re-create it.',
  );
}

/**
 * Opens a .pptx, .xlsx or .docx after checking, in this order, that it exists, is not empty, is not too large, is a
 * zip (not an encrypted or legacy file), would not unpack to more than the limit, and lists one of the three main
 * parts. Every refusal is an AppError whose message names the file and says what to do.
 */
export async function openPackage(path: string, limits: PackageLimits = DEFAULT_LIMITS): Promise<OfficePackage> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw badInput(path, 'is a folder: pass the path of a .pptx, .xlsx or .docx file.');
    size = info.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'not_found',
      `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the path.`,
      { cause: error },
    );
  }
  if (size === 0)
    throw badInput(path, 'is empty (0 bytes): the service that made it wrote nothing. Re-run it, then compare.');
  if (size > limits.maxFileBytes) {
    throw new AppError(
      'too_large',
      `${path} is ${megabytes(size)}, above the ${megabytes(limits.maxFileBytes)} limit for one document: check that it is the right file, or raise the limit with --max-size.`,
    );
  }
  const buffer = await readFile(path);
  if (buffer.readUInt32LE(0) !== 0x04034b50) throw notAPackage(path, buffer);
  const entries = readZipDirectory(buffer);
  if (!entries)
    throw badInput(
      path,
      'is corrupt: its zip package is truncated or damaged (no readable table of contents). Re-create the file.',
    );
  const unpacked = entries.reduce((total, entry) => total + entry.unpackedBytes, 0);
  if (unpacked > limits.maxUnpackedBytes) {
    throw new AppError(
      'too_large',
      `${path} would unpack to ${megabytes(unpacked)}, above the ${megabytes(limits.maxUnpackedBytes)} limit: it is either a zip bomb or far larger than a real document. Check the file, or raise the limit with --max-size.`,
    );
  }
  const names = new Set(entries.map((entry) => entry.name));
  const kind = (Object.keys(MAIN_PART) as DocumentKind[]).find((candidate) => names.has(MAIN_PART[candidate]));
  if (!kind)
    throw badInput(
      path,
      'is a zip file but not a PowerPoint, Excel or Word document (no presentation, workbook or document part).',
    );
  let loading: Promise<JSZip> | undefined;
  const zip = (): Promise<JSZip> =>
    // jszip is loaded when a package is first unpacked, not at the host's start.
    (loading ??= import('jszip')
      .then(({ default: jszip }) => jszip.loadAsync(buffer, { checkCRC32: false }))
      .catch((error: unknown) => {
        throw badInput(
          path,
          `is corrupt: its zip package cannot be read (${error instanceof Error ? error.message : String(error)}). Re-create the file.`,
          error,
        );
      }));
  return { path, kind, bytes: size, buffer, zip };
}

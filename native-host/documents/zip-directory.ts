/**
 * Reads a zip's central directory (names and unpacked sizes) without inflating anything, so a document that would
 * unpack to gigabytes (a zip bomb, or a runaway generator) is refused before it is loaded. Handles Zip64.
 */
export interface ZipEntry {
  name: string;
  unpackedBytes: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const MAX_COMMENT = 0xffff;

function findEndRecord(data: Buffer): number {
  const stop = Math.max(0, data.length - 22 - MAX_COMMENT);
  for (let at = data.length - 22; at >= stop; at -= 1) if (data.readUInt32LE(at) === EOCD) return at;
  return -1;
}

/** Returns the entries, or undefined when the buffer has no readable central directory (truncated or not a zip). */
export function readZipDirectory(data: Buffer): ZipEntry[] | undefined {
  if (data.length < 22) return undefined;
  const end = findEndRecord(data);
  if (end < 0) return undefined;
  let count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  if ((offset === 0xffffffff || count === 0xffff) && end >= 20 && data.readUInt32LE(end - 20) === ZIP64_LOCATOR) {
    const record = Number(data.readBigUInt64LE(end - 20 + 8));
    if (record + 56 > data.length || data.readUInt32LE(record) !== ZIP64_EOCD) return undefined;
    count = Number(data.readBigUInt64LE(record + 32));
    offset = Number(data.readBigUInt64LE(record + 48));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL) return undefined;
    let unpackedBytes = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    if (unpackedBytes === 0xffffffff)
      unpackedBytes = zip64Size(data, at + 46 + nameLength, extraLength) ?? Number.MAX_SAFE_INTEGER;
    entries.push({ name, unpackedBytes });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function zip64Size(data: Buffer, start: number, length: number): number | undefined {
  for (let at = start; at + 4 <= start + length;) {
    const id = data.readUInt16LE(at);
    const size = data.readUInt16LE(at + 2);
    if (id === 0x0001 && size >= 8) return Number(data.readBigUInt64LE(at + 4));
    at += 4 + size;
  }
  return undefined;
}

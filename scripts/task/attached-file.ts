import { statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';

/** A file given with --file: the task may upload it, by name; the model never sees where it is. */
export interface AttachedFile {
  name: string;
  size: number;
  type: string;
  path: string;
}

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.md': 'text/markdown',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.zip': 'application/zip',
};

/** Reads one --file argument: an existing, readable regular file, by its absolute path (repeatable). */
export function collectFile(value: string, files: AttachedFile[]): AttachedFile[] {
  const path = resolve(value);
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new InvalidArgumentError(`${value} is not a file: give the path of a file to attach.`);
    size = info.size;
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    throw new InvalidArgumentError(`${value} cannot be read: there is no such file (paths are relative to ${process.cwd()}).`);
  }
  const name = basename(path);
  if (files.some((file) => file.name === name)) throw new InvalidArgumentError(`two files are named ${name}: the task uploads files by name, so give each a different name.`);
  return [...files, { name, size, type: TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream', path }];
}

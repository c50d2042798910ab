import { stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { McpUploadFile } from '../../shared/protocol';

/** browser_upload's arguments as the extension takes them (files by name), with the files the names stand for. */
export type UploadRequest = { arguments: Record<string, unknown>; files: McpUploadFile[] } | { error: string };

/**
 * Finds the files an agent's browser_upload names by path on this computer: each must be an absolute path to a regular
 * file, and no two may share a name (the page sees only names). Arguments that are not a list of paths go on as they
 * are, for the tool's own validation to explain.
 */
export async function uploadRequest(args: Record<string, unknown>): Promise<UploadRequest> {
  const paths = args.files;
  if (!Array.isArray(paths) || !paths.every((p): p is string => typeof p === 'string' && p !== '')) return { arguments: args, files: [] };
  const files: McpUploadFile[] = [];
  for (const path of paths) {
    if (!isAbsolute(path)) return { error: `${JSON.stringify(path)} is not an absolute path: give browser_upload the full path of each file on this computer.` };
    const found = await stat(path).catch(() => undefined);
    if (!found) return { error: `There is no file at ${path}: nothing was uploaded. Check the path.` };
    if (!found.isFile()) return { error: `${path} is not a file (a folder or a device): nothing was uploaded. Give the path of a file.` };
    const name = basename(path);
    if (files.some((file) => file.name === name)) return { error: `Two files are named ${JSON.stringify(name)}: the page would not tell them apart. Upload them one at a time.` };
    files.push({ name, size: found.size, type: '', path });
  }
  return { arguments: { ...args, files: files.map((file) => file.name) }, files };
}

import { createHash, createHmac } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostMatches } from './ssh-config';

/** A server's host key as it arrived: its algorithm and the key blob, as known_hosts stores them. */
export interface HostKey {
  type: string;
  /** The SSH wire-format public key. */
  blob: Buffer;
}

/** Reads the algorithm name at the start of an SSH public key blob ("ssh-ed25519"). */
export function hostKeyOf(blob: Buffer): HostKey {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const type = length > 0 && length < 64 && blob.length >= 4 + length ? blob.subarray(4, 4 + length).toString('latin1') : 'unknown';
  return { type, blob };
}

/** `SHA256:…`, the fingerprint OpenSSH prints. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The name known_hosts files use for a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

export type HostKeyCheck =
  | { result: 'match'; file: string; line: number }
  /** The host is known with another key of the same kind: the key changed, or someone is in between. */
  | { result: 'mismatch'; file: string; line: number; knownType: string }
  /** The key is listed as revoked. */
  | { result: 'revoked'; file: string; line: number }
  | { result: 'unknown' };

function hashedMatches(entry: string, name: string): boolean {
  const [, magic, salt, hash] = entry.split('|');
  if (magic !== '1' || !salt || !hash) return false;
  return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
}

function entryMatches(patterns: string, name: string): boolean {
  if (patterns.startsWith('|')) return hashedMatches(patterns, name);
  return hostMatches(patterns.split(','), name);
}

/** Looks a host key up in known_hosts text, the way OpenSSH does: hashed and plain names, wildcards, @revoked. */
export function checkHostKey(files: { path: string; text: string }[], name: string, key: HostKey): HostKeyCheck {
  const keyBase64 = key.blob.toString('base64');
  let mismatch: HostKeyCheck | undefined;
  for (const file of files) {
    const lines = file.text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i += 1) {
      const fields = (lines[i] ?? '').trim().split(/\s+/);
      if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) continue;
      const marker = fields[0].startsWith('@') ? fields.shift() : undefined;
      const [patterns, type, blob] = fields;
      if (!patterns || !type || !blob || marker === '@cert-authority' || !entryMatches(patterns, name)) continue;
      if (marker === '@revoked') {
        if (blob === keyBase64) return { result: 'revoked', file: file.path, line: i + 1 };
        continue;
      }
      if (type === key.type && blob === keyBase64) return { result: 'match', file: file.path, line: i + 1 };
      if (type === key.type) mismatch ??= { result: 'mismatch', file: file.path, line: i + 1, knownType: type };
    }
  }
  return mismatch ?? { result: 'unknown' };
}

/** Reads the known_hosts files that exist; missing ones are simply empty. */
export async function readKnownHosts(paths: string[]): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  for (const path of paths) {
    try {
      files.push({ path, text: await readFile(path, 'utf8') });
    } catch {
      // Not there yet: nothing is known from it.
    }
  }
  return files;
}

/** Adds a host's key, as the user accepted it, creating ~/.ssh (0700) and the file (0600) as OpenSSH would. */
export async function addKnownHost(path: string, name: string, key: HostKey): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  let prefix = '';
  try {
    const existing = await readFile(path, 'utf8');
    if (existing.length > 0 && !existing.endsWith('\n')) prefix = '\n';
  } catch {
    // A new file.
  }
  await appendFile(path, `${prefix}${name} ${key.type} ${key.blob.toString('base64')}\n`, { mode: 0o600 });
}

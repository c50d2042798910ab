import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/** The options of ~/.ssh/config Deputy follows, lowercased as OpenSSH matches them. Multi-valued ones collect. */
export interface HostConfig {
  hostname?: string;
  user?: string;
  port?: string;
  identityfile: string[];
  identitiesonly?: string;
  identityagent?: string;
  userknownhostsfile?: string;
  stricthostkeychecking?: string;
  serveraliveinterval?: string;
  serveralivecountmax?: string;
  connecttimeout?: string;
  hostkeyalias?: string;
  proxyjump?: string;
  proxycommand?: string;
}

type Single = Exclude<keyof HostConfig, 'identityfile'>;
const SINGLE: ReadonlySet<string> = new Set<Single>([
  'hostname',
  'user',
  'port',
  'identitiesonly',
  'identityagent',
  'userknownhostsfile',
  'stricthostkeychecking',
  'serveraliveinterval',
  'serveralivecountmax',
  'connecttimeout',
  'hostkeyalias',
  'proxyjump',
  'proxycommand',
]);

interface Line {
  key: string;
  value: string;
}

/** Splits one line into a lowercased key and its value (`Key value`, `Key=value`, quotes around the value). */
function parseLine(raw: string): Line | undefined {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return undefined;
  const match = /^(\S+?)(?:\s*=\s*|\s+)(.*)$/.exec(line);
  if (!match?.[1]) return undefined;
  return { key: match[1].toLowerCase(), value: (match[2] ?? '').trim() };
}

/** Words of a value, honouring double quotes (IdentityFile "~/my keys/id"). */
function words(value: string): string[] {
  return [...value.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** OpenSSH's host pattern: `*` and `?` wildcards, case-insensitive. */
function globMatches(pattern: string, name: string): boolean {
  const regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return regex.test(name);
}

/** A `Host` line's patterns match when one of them does and no negated one does. */
export function hostMatches(patterns: string[], name: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (globMatches(pattern.slice(1), name)) return false;
    } else if (globMatches(pattern, name)) matched = true;
  }
  return matched;
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

interface ConfigFs {
  read(path: string): string | undefined;
  list(folder: string): string[];
}

/** The lines of a config file with its Include lines replaced by the files they name (relative to ~/.ssh). */
function readLines(file: string, home: string, depth: number, fs: ConfigFs): Line[] {
  const read = (path: string): string | undefined => fs.read(path);
  const text = read(file);
  if (text === undefined || depth > 8) return [];
  const out: Line[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = parseLine(raw);
    if (!line) continue;
    if (line.key !== 'include') {
      out.push(line);
      continue;
    }
    for (const word of words(line.value)) {
      const path = expandHome(word, home);
      const full = isAbsolute(path) ? path : join(home, '.ssh', path);
      for (const included of expandGlob(full, fs)) out.push(...readLines(included, home, depth + 1, fs));
    }
  }
  return out;
}

function expandGlob(path: string, fs: ConfigFs): string[] {
  if (!/[*?]/.test(path)) return [path];
  const folder = dirname(path);
  try {
    return fs
      .list(folder)
      .filter((name) => globMatches(path.slice(folder.length + 1), name))
      .sort()
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}

/**
 * The options that apply to `alias`, the way OpenSSH reads ~/.ssh/config: every `Host` block whose patterns match, in
 * file order, the first value of each option winning (IdentityFile values add up). `Match` blocks are not evaluated:
 * their options are skipped. `%h` in HostName becomes the alias.
 */
export function resolveHostConfig(alias: string, options: { home: string; file?: string; fs?: ConfigFs }): HostConfig {
  const fs: ConfigFs = options.fs ?? {
    read: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    list: (folder) => readdirSync(folder),
  };
  const lines = readLines(options.file ?? join(options.home, '.ssh', 'config'), options.home, 0, fs);
  const config: HostConfig = { identityfile: [] };
  let active = true;
  for (const { key, value } of lines) {
    if (key === 'host') {
      active = hostMatches(words(value), alias);
      continue;
    }
    if (key === 'match') {
      active = false;
      continue;
    }
    if (!active) continue;
    if (key === 'identityfile') config.identityfile.push(...words(value));
    else if (SINGLE.has(key) && config[key as Single] === undefined) config[key as Single] = words(value).join(' ');
  }
  if (config.hostname !== undefined) config.hostname = config.hostname.replace(/%h/g, alias);
  return config;
}

/** Replaces ~ and the tokens OpenSSH allows in file paths: %d (home), %u (local user), %h (host), %r (remote user). */
export function expandPath(path: string, tokens: { home: string; localUser: string; host: string; remoteUser: string }): string {
  const expanded = path.replace(/%([dhru%])/g, (_, token: string) =>
    token === 'd' ? tokens.home : token === 'u' ? tokens.localUser : token === 'h' ? tokens.host : token === 'r' ? tokens.remoteUser : '%',
  );
  return expandHome(expanded, tokens.home);
}

import type { FailureItem } from '../../shared/protocol/loop-protocol';
import { parseJunitXml } from './parse-junit';

export type CheckFormat = 'auto' | 'tap' | 'junit' | 'vitest' | 'jest' | 'pytest' | 'text';

export interface ParsedCheck {
  format: Exclude<CheckFormat, 'auto'>;
  failures: FailureItem[];
}

const TAIL_LINES = 60;
const MAX_ITEMS = 50;
// Test runners colour their output when they think a terminal is watching; the codes would end up in prompts.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/**
 * Turns a check's output into failure items. Known formats give one item per failing test; anything else gives one
 * item holding the tail of the output, so the fixer always sees what the check said.
 */
export function parseCheckOutput(output: string, format: CheckFormat, junitXml?: string): ParsedCheck {
  const text = output.replace(ANSI, '').replace(/\r\n/g, '\n');
  if (junitXml !== undefined) return { format: 'junit', failures: parseJunitXml(junitXml).slice(0, MAX_ITEMS) };
  const chosen = format === 'auto' ? detectFormat(text) : format;
  const failures = parsers[chosen](text).slice(0, MAX_ITEMS);
  return { format: chosen, failures };
}

export function detectFormat(text: string): Exclude<CheckFormat, 'auto'> {
  if (/^\s*<\?xml|^\s*<testsuites?[\s>]/.test(text)) return 'junit';
  if (/^TAP version \d+/m.test(text) || /^\s*(not )?ok \d+/m.test(text)) return 'tap';
  if (/short test summary info|^FAILED \S+::/m.test(text)) return 'pytest';
  if (/^\s*●\s/m.test(text) && /^Tests:\s+.*total/m.test(text)) return 'jest';
  if (/^\s*Test Files\s+/m.test(text) || /^\s*FAIL\s+\S+\s+>\s/m.test(text)) return 'vitest';
  return 'text';
}

/** The last lines of the output, as one item: what a person would scroll to. */
export function textTail(text: string): FailureItem[] {
  const lines = text.trimEnd().split('\n');
  const tail = lines.slice(-TAIL_LINES).join('\n').slice(-3900);
  return tail.trim().length === 0 ? [] : [{ id: 'output', message: tail, severity: 'warning' }];
}

const parsers: Record<Exclude<CheckFormat, 'auto'>, (text: string) => FailureItem[]> = {
  text: textTail,
  junit: (text) => parseJunitXml(text),
  tap: parseTap,
  vitest: parseVitest,
  jest: parseJest,
  pytest: parsePytest,
};

function firstMeaningfulLine(lines: string[], from: number): string {
  for (let i = from; i < Math.min(lines.length, from + 12); i += 1) {
    const line = lines[i]?.trim() ?? '';
    if (line.length > 0 && !/^[-=⎯_]{3,}/.test(line)) return line;
  }
  return '';
}

export function parseTap(text: string): FailureItem[] {
  const lines = text.split('\n');
  const items: FailureItem[] = [];
  lines.forEach((line, index) => {
    const match = /^\s*not ok\s+(\d+)\s*(?:-\s*)?([^#]*)(#.*)?$/.exec(line);
    if (!match) return;
    const directive = match[3] ?? '';
    // TODO and SKIP tests are allowed to fail by TAP's own rules.
    if (/#\s*(todo|skip)/i.test(directive)) return;
    const name = (match[2] ?? '').trim() || `test ${match[1] ?? ''}`;
    const yaml: string[] = [];
    if (/^\s*---\s*$/.test(lines[index + 1] ?? '')) {
      for (let i = index + 2; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i] ?? ''); i += 1) yaml.push((lines[i] ?? '').trim());
    }
    const message = yaml.find((entry) => entry.startsWith('message:'))?.replace(/^message:\s*/, '').replace(/^['"]|['"]$/g, '');
    const file = yaml.find((entry) => /^(file|at):/.test(entry))?.replace(/^(file|at):\s*/, '');
    items.push({ id: name, message: message ?? (yaml.slice(0, 8).join('\n') || 'not ok'), severity: 'failure', ...(file ? { file } : {}) });
  });
  return items;
}

export function parseVitest(text: string): FailureItem[] {
  const lines = text.split('\n');
  const items: FailureItem[] = [];
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    const match = /^\s*FAIL\s+(\S+)\s+>\s+(.+?)\s*$/.exec(line);
    if (match) {
      const id = `${match[1] ?? ''} > ${match[2] ?? ''}`;
      if (seen.has(id)) return;
      seen.add(id);
      items.push({ id, message: firstMeaningfulLine(lines, index + 1) || 'failed', severity: 'failure', file: match[1] ?? '' });
      return;
    }
    // A file that fails before any test runs (a syntax error, a missing import) is reported without " > ".
    const suite = /^\s*FAIL\s+(\S+)\s*\[\s*\S+\s*\]\s*$/.exec(line);
    if (suite && !seen.has(suite[1] ?? '')) {
      seen.add(suite[1] ?? '');
      items.push({ id: suite[1] ?? '', message: firstMeaningfulLine(lines, index + 1) || 'failed to run', severity: 'error', file: suite[1] ?? '' });
    }
  });
  return items;
}

export function parseJest(text: string): FailureItem[] {
  const lines = text.split('\n');
  const items: FailureItem[] = [];
  let file: string | undefined;
  lines.forEach((line, index) => {
    const fail = /^\s*FAIL\s+(\S+)/.exec(line);
    if (fail) file = fail[1];
    const bullet = /^\s*●\s+(.+?)\s*$/.exec(line);
    if (!bullet) return;
    const name = (bullet[1] ?? '').replace(/\s+›\s+/g, ' > ');
    const severity = /Test suite failed to run/.test(name) ? 'error' : 'failure';
    items.push({ id: file ? `${file} > ${name}` : name, message: firstMeaningfulLine(lines, index + 1) || 'failed', severity, ...(file ? { file } : {}) });
  });
  return items;
}

export function parsePytest(text: string): FailureItem[] {
  const items: FailureItem[] = [];
  for (const line of text.split('\n')) {
    const match = /^(FAILED|ERROR)\s+(\S+?)(?:\s+-\s+(.*))?$/.exec(line.trim());
    if (!match) continue;
    const id = match[2] ?? '';
    items.push({
      id,
      message: match[3] ?? (match[1] === 'ERROR' ? 'error while running' : 'failed'),
      severity: match[1] === 'ERROR' ? 'error' : 'failure',
      file: id.split('::')[0] ?? id,
    });
  }
  return items;
}

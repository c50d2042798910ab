import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

/** One record of a session's log: what happened, in order. Every string in it is redacted before it is written. */
export type LogRecord =
  | { type: 'session'; sessionId: string; target: string; objective: string; mode: string; resumed: boolean }
  | { type: 'connected'; target: string; description: string }
  | { type: 'command'; process: string; command: string; cwd: string | null; pty: boolean; by: 'agent' | 'user' }
  | { type: 'output'; process: string; text: string }
  | { type: 'background'; process: string; afterMs: number }
  | { type: 'exit'; process: string; exitCode: number | null; signal: string | null; durationMs: number; lost?: string }
  | { type: 'kill'; process: string; by: 'agent' | 'user' | 'session end' }
  | { type: 'gate'; callId: string; tool: string; subject: string; decision: 'allow' | 'ask' | 'deny'; by: string; reason: string }
  | { type: 'verdict'; callId: string; subject: string; verdict: 'approve' | 'reject' | 'failed'; reason: string; model: string; durationMs: number }
  | { type: 'approval'; callId: string; intent: string; approved: boolean; by: string; note?: string; alwaysAllowPrefix?: string }
  | { type: 'file'; path: string; bytes: number; content: string }
  | { type: 'reply'; step: number; text: string }
  | { type: 'question'; question: string; answer: string }
  | { type: 'memory'; throughStep: number; summary: string }
  | { type: 'note'; text: string }
  | { type: 'end'; status: string; summary: string };

export type LogLine = LogRecord & { seq: number; at: number };

export interface SearchOptions {
  query: string;
  /** Treat the query as a regular expression (case-insensitive) instead of plain text. */
  regex?: boolean;
  /** Lines shown before and after each match, from the same command's output (or the same kind of record). */
  context?: number;
  maxResults?: number;
}

export interface SearchHit {
  /** What the lines belong to: `p3 $ make` for a command's output, `file /etc/x` for a written file, ... */
  source: string;
  /** Numbered lines, `>` marking the matches. */
  lines: { n: number; text: string; match: boolean }[];
}

export interface SearchResult {
  hits: SearchHit[];
  matches: number;
  linesSearched: number;
  /** Log lines that were not valid JSON (a torn write after a crash) and were skipped. */
  skipped: number;
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The searchable lines of one record, each with the group its context comes from. */
function linesOf(record: LogRecord, commands: Map<string, string>): { group: string; text: string }[] {
  const split = (text: string): string[] => text.replace(/\n$/, '').split('\n');
  switch (record.type) {
    case 'command':
      commands.set(record.process, record.command.split('\n')[0] ?? '');
      return split(record.command).map((text, i) => ({ group: record.process, text: i === 0 ? `$ ${text}` : `> ${text}` }));
    case 'output':
      return split(record.text).map((text) => ({ group: record.process, text }));
    case 'exit':
      return [{ group: record.process, text: record.lost ? `[connection lost: ${record.lost}]` : `[exit ${record.exitCode ?? record.signal ?? '?'}]` }];
    case 'background':
      return [{ group: record.process, text: `[still running after ${Math.round(record.afterMs / 1000)} s: continues in the background]` }];
    case 'kill':
      return [{ group: record.process, text: `[killed by the ${record.by}]` }];
    case 'file':
      return [{ group: `file ${record.path}`, text: `[wrote ${record.path}, ${record.bytes} bytes]` }, ...split(record.content).map((text) => ({ group: `file ${record.path}`, text }))];
    case 'reply':
      return split(record.text).map((text) => ({ group: 'model', text: `[step ${record.step + 1}] ${text}` }));
    case 'question':
      return [{ group: 'user', text: `[asked] ${record.question}` }, { group: 'user', text: `[answered] ${record.answer}` }];
    case 'gate':
      return [{ group: 'safety', text: `[${record.decision} by ${record.by}] ${record.subject}: ${record.reason}` }];
    case 'verdict':
      return [{ group: 'safety', text: `[validator ${record.verdict}] ${record.subject}: ${record.reason}` }];
    case 'approval':
      return [{ group: 'safety', text: `[${record.approved ? 'approved' : 'declined'} by ${record.by}] ${record.intent}${record.note ? ` (${record.note})` : ''}` }];
    case 'memory':
      return split(record.summary).map((text) => ({ group: 'memory', text: `[working memory] ${text}` }));
    case 'session':
      return [{ group: 'session', text: `[session ${record.sessionId}${record.resumed ? ' resumed' : ''}] ${record.target}: ${record.objective}` }];
    case 'connected':
      return [{ group: 'session', text: `[connected] ${record.description}` }];
    case 'note':
      return [{ group: 'session', text: `[note] ${record.text}` }];
    case 'end':
      return [{ group: 'session', text: `[ended ${record.status}] ${record.summary}` }];
  }
}

function sourceOf(group: string, commands: Map<string, string>): string {
  const command = commands.get(group);
  return command === undefined ? group : `${group} $ ${cut(command, 80)}`;
}

/**
 * A session's append-only log (JSONL): every command, its full output (never shortened), exit codes, approvals,
 * validator verdicts, files written, the model's words. Lines are written in order through one queue; a record that
 * matters after a crash (a command about to start) is written and flushed to disk before the caller goes on. Search
 * reads it back as lines, with context from the same command, so the agent can recall what its working memory lost.
 */
export class SessionLog {
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private seq = 0;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly redact: (text: string) => string,
    private readonly now: () => number,
  ) {}

  /** Opens (or creates) the log; a log from before a crash is continued, after its last complete line. */
  static async open(file: string, options: { redact: (text: string) => string; now: () => number }): Promise<SessionLog> {
    await mkdir(dirname(file), { recursive: true });
    let last = 0;
    let torn = false;
    try {
      for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
        try {
          last = Math.max(last, (JSON.parse(line) as { seq?: number }).seq ?? 0);
          torn = false;
        } catch {
          torn = true;
        }
      }
    } catch {
      // A new log.
    }
    // A line torn by a crash gets its end, so the next record starts on a line of its own.
    if (torn) await appendFile(file, '\n');
    const handle = await open(file, 'a', 0o600);
    const log = new SessionLog(file, handle, options.redact, options.now);
    log.seq = last;
    return log;
  }

  /** Queues a record; the log is written in order. */
  append(record: LogRecord): void {
    void this.write(record, false);
  }

  /** Writes a record and waits until it is on disk. */
  appendDurable(record: LogRecord): Promise<void> {
    return this.write(record, true);
  }

  flush(): Promise<void> {
    return this.queue.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }

  private write(record: LogRecord, durable: boolean): Promise<void> {
    this.seq += 1;
    const line = `${JSON.stringify({ seq: this.seq, at: this.now(), ...redactRecord(record, this.redact) })}\n`;
    const done = this.queue.then(async () => {
      await this.handle.write(line);
      if (durable) await this.handle.datasync();
    });
    this.queue = done.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    });
    return done;
  }

  /** Searches the whole log (waiting for queued records first). */
  async search(options: SearchOptions): Promise<SearchResult> {
    await this.queue;
    return searchLog(this.file, options);
  }
}

function redactRecord(record: LogRecord, redact: (text: string) => string): LogRecord {
  // Command output is redacted line by line as it arrives (CommandOutput), before the model or a live view sees it;
  // doing it again here would double the cost of a command that prints megabytes.
  if (record.type === 'output') return record;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = typeof value === 'string' && key !== 'type' ? redact(value) : value;
  return out as LogRecord;
}

/** Reads every valid line of a session log, in order. */
export async function* readLog(file: string, onSkipped?: () => void): AsyncGenerator<LogLine> {
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line) as LogLine;
    } catch {
      onSkipped?.();
    }
  }
}

export async function searchLog(file: string, options: SearchOptions): Promise<SearchResult> {
  const context = Math.max(0, Math.min(options.context ?? 3, 20));
  const max = Math.max(1, Math.min(options.maxResults ?? 10, 50));
  const pattern = options.regex ? new RegExp(options.query, 'i') : undefined;
  const needle = options.query.toLowerCase();
  const matches = (text: string): boolean => (pattern ? pattern.test(text) : text.toLowerCase().includes(needle));
  const commands = new Map<string, string>();
  const before = new Map<string, { n: number; text: string }[]>();
  const open = new Map<string, { hit: SearchHit; need: number }>();
  const hits: SearchHit[] = [];
  let count = 0;
  let n = 0;
  let skipped = 0;
  for await (const record of readLog(file, () => (skipped += 1))) {
    for (const { group, text } of linesOf(record, commands)) {
      n += 1;
      const shown = cut(text, 500);
      const hit = matches(text);
      const current = open.get(group);
      if (hit) count += 1;
      if (current && current.need > 0) {
        current.hit.lines.push({ n, text: shown, match: hit });
        current.need = hit ? context : current.need - 1;
        if (current.need === 0) open.delete(group);
      } else if (hit && hits.length < max) {
        const entry = { hit: { source: sourceOf(group, commands), lines: [...(before.get(group) ?? []).map((l) => ({ ...l, match: false })), { n, text: shown, match: true }] }, need: context };
        hits.push(entry.hit);
        if (context > 0) open.set(group, entry);
      }
      const ring = before.get(group) ?? [];
      ring.push({ n, text: shown });
      if (ring.length > context) ring.shift();
      before.set(group, ring);
    }
  }
  return { hits, matches: count, linesSearched: n, skipped };
}

/** The result as the model reads it: each hit under its source, numbered lines, matches marked with `>`. */
export function formatSearch(query: string, result: SearchResult, maxChars = 8000): string {
  if (result.matches === 0) return `No line of the session log (${result.linesSearched} lines) matches "${query}".`;
  const head = `${result.matches} matching ${result.matches === 1 ? 'line' : 'lines'} for "${query}" in the session log (${result.linesSearched} lines)${result.hits.length < result.matches ? `; the first ${result.hits.length} places shown` : ''}:`;
  let text = head;
  for (const hit of result.hits) {
    const block = `\n--- ${hit.source}\n${hit.lines.map((line) => `${line.match ? '>' : ' '} ${String(line.n).padStart(6)}  ${line.text}`).join('\n')}`;
    if (text.length + block.length > maxChars) {
      text += '\n[… more places not shown: search for something more specific]';
      break;
    }
    text += block;
  }
  return text;
}

import { AppError } from '../../shared/errors';
import type { ShellProcess } from '../../shared/protocol/shell-protocol';
import type { Logger } from '../log/logger';
import { CommandOutput, DEFAULT_OUTPUT_LIMITS, type Delivery, type OutputLimits } from './command-output';
import type { SessionLog } from './session-log';
import type { RunningCommand, ShellTarget } from './shell-target';

/** A command as lists show it (the host channel's ShellProcess). */
export type ProcessInfo = ShellProcess;

/** What survives a restart of a process: enough to list it and to kill its group. */
export type ProcessRecord = Omit<ProcessInfo, 'outputBytes' | 'outputLines' | 'unread'>;

export type ShellEvent = { kind: 'process'; process: ProcessInfo } | { kind: 'output'; processId: string; text: string };

export interface RunParams {
  command: string;
  cwd?: string;
  pty?: boolean;
  /** How long to wait in the foreground before the command goes on in the background. */
  waitMs: number;
  /** Start it in the background at once (a server, a watcher). */
  background?: boolean;
  by?: 'agent' | 'user';
}

export interface RunResult {
  process: ProcessInfo;
  output: Delivery;
}

export interface WaitResult {
  process: ProcessInfo;
  output: Delivery;
  /** What ended the wait: the pattern (or, without one, any new output), the process's end, or the time limit. */
  reason: 'output' | 'exited' | 'timeout';
}

/** A terminal prompt for a password. sudo's, su's, ssh's and the usual "Password:" / "passphrase:". */
export const PASSWORD_PROMPT = /(\[sudo\] password for [^:\n]*:|^password:|password for [^:\n]+:|passphrase[^:\n]*:|^enter password:)\s*$/i;

export interface ShellServiceDeps {
  target: ShellTarget;
  log: SessionLog;
  redact: (text: string) => string;
  now: () => number;
  onEvent?: (event: ShellEvent) => void;
  /** A password prompt in a pty: the user answers it (the answer goes to the process only, never to the model or a log). */
  onPasswordPrompt?: (request: { processId: string; command: string; prompt: string }) => Promise<string | null>;
  limits?: Partial<OutputLimits> & { logBytesPerProcess?: number };
  logger?: Logger;
}

interface Entry {
  record: ProcessRecord;
  output: CommandOutput;
  handle: RunningCommand | undefined;
  ended: Promise<void>;
}

const LOG_BYTES_PER_PROCESS = 256 * 1024 * 1024;

/**
 * Commands on one target, as a service with a small API: run (foreground up to a wait, then background), list, check,
 * wait for output, kill (the whole group), write a file. Output is delivered exactly once, every record goes to the
 * session log, and live views get events. The agent's tools call it; so can the host's methods and, later, other
 * agents through MCP.
 */
export class ShellService {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: ShellEvent) => void>();
  private next = 1;
  private readonly limits: OutputLimits;
  private readonly logCap: number;

  constructor(private readonly deps: ShellServiceDeps) {
    this.limits = { ...DEFAULT_OUTPUT_LIMITS, ...deps.limits };
    this.logCap = deps.limits?.logBytesPerProcess ?? LOG_BYTES_PER_PROCESS;
  }

  get target(): ShellTarget {
    return this.deps.target;
  }

  /** Calls `listener` with every event (a process started or changed, new output); returns what removes it. */
  subscribe(listener: (event: ShellEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Processes known from before a restart: listed as unknown (or as they ended), killable by their group. */
  restore(records: ProcessRecord[]): void {
    for (const saved of records) {
      const record: ProcessRecord = saved.status === 'running' ? { ...saved, status: 'unknown' } : saved;
      const output = new CommandOutput(this.deps.redact, () => undefined, this.limits);
      this.entries.set(record.id, { record, output, handle: undefined, ended: Promise.resolve() });
      const n = Number(record.id.replace(/^p/, ''));
      if (Number.isInteger(n) && n >= this.next) this.next = n + 1;
    }
  }

  /** What to save with the session, so a restarted host still knows the processes. */
  snapshot(): ProcessRecord[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.record }));
  }

  list(): ProcessInfo[] {
    return [...this.entries.values()].map((entry) => this.info(entry));
  }

  async run(params: RunParams, signal?: AbortSignal): Promise<RunResult> {
    const id = `p${this.next}`;
    this.next += 1;
    const by = params.by ?? 'agent';
    const pty = params.pty === true;
    // Recorded on disk before it starts: after a crash the log says it may have run.
    await this.deps.log.appendDurable({ type: 'command', process: id, command: params.command, cwd: params.cwd ?? null, pty, by });
    const record: ProcessRecord = {
      id,
      command: this.deps.redact(params.command),
      cwd: params.cwd ?? null,
      pty,
      status: 'running',
      exitCode: null,
      signal: null,
      lost: null,
      startedAt: this.deps.now(),
      endedAt: null,
      background: params.background === true,
      group: null,
      by,
    };
    let logged = 0;
    let capped = false;
    const output = new CommandOutput(
      this.deps.redact,
      (text) => {
        this.emit({ kind: 'output', processId: id, text });
        logged += text.length;
        if (logged <= this.logCap) this.deps.log.append({ type: 'output', process: id, text });
        else if (!capped) {
          capped = true;
          this.deps.log.append({ type: 'note', text: `${id} printed more than ${Math.round(this.logCap / 1024 / 1024)} MB; the rest of its output is not logged.` });
        }
      },
      this.limits,
    );
    let handle: RunningCommand;
    try {
      handle = await this.deps.target.start({ code: params.command, ...(params.cwd === undefined ? {} : { cwd: params.cwd }), pty });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      record.status = 'lost';
      record.lost = message;
      record.endedAt = this.deps.now();
      const entry: Entry = { record, output, handle: undefined, ended: Promise.resolve() };
      this.entries.set(id, entry);
      this.deps.log.append({ type: 'exit', process: id, exitCode: null, signal: null, durationMs: 0, lost: message });
      this.changed(entry);
      throw error instanceof AppError ? error : new AppError('unavailable', message);
    }
    handle.onData((chunk) => output.push(chunk));
    const entry: Entry = {
      record,
      output,
      handle,
      ended: handle.ended.then((end) => {
        output.end();
        record.group ??= handle.group ?? null;
        record.endedAt = this.deps.now();
        record.exitCode = end.exitCode;
        record.signal = end.signal;
        if (record.status === 'running') record.status = end.lost !== undefined ? 'lost' : 'exited';
        if (end.lost !== undefined) record.lost = end.lost;
        this.deps.log.append({
          type: 'exit',
          process: id,
          exitCode: end.exitCode,
          signal: end.signal,
          durationMs: record.endedAt - record.startedAt,
          ...(end.lost === undefined ? {} : { lost: end.lost }),
        });
        this.changed(entry);
      }),
    };
    this.entries.set(id, entry);
    if (pty && this.deps.onPasswordPrompt) this.watchPasswordPrompts(entry);
    // The group is known at once locally, a moment later remotely (the script reports it first); either way it is
    // announced, so a saved session can still kill it after a crash.
    record.group = handle.group ?? null;
    void handle.groupKnown.then((group) => {
      if (group === undefined || record.group !== null) return;
      record.group = group;
      this.changed(entry);
    });
    this.changed(entry);
    if (!record.background) {
      const outcome = await this.settle(entry, params.waitMs, signal);
      if (outcome === 'waiting') {
        record.background = true;
        this.deps.log.append({ type: 'background', process: id, afterMs: params.waitMs });
        this.changed(entry);
      }
    }
    return { process: this.info(entry), output: output.take() };
  }

  /** The process's state and its output since it was last read. */
  check(id: string): RunResult {
    const entry = this.find(id);
    return { process: this.info(entry), output: entry.output.take() };
  }

  /**
   * Waits until new output arrives (matching `pattern` when one is given), the process ends, or `timeoutMs` passes;
   * then delivers what is new.
   */
  async waitForOutput(id: string, options: { pattern?: RegExp; timeoutMs: number }, signal?: AbortSignal): Promise<WaitResult> {
    const entry = this.find(id);
    const ready = (): boolean => {
      if (!entry.output.hasNew()) return false;
      return options.pattern ? options.pattern.test(entry.output.pending()) : true;
    };
    let reason: WaitResult['reason'] = 'timeout';
    if (ready()) reason = 'output';
    else if (entry.record.status !== 'running') reason = 'exited';
    else {
      reason = await new Promise<WaitResult['reason']>((resolve, reject) => {
        const finish = (why: WaitResult['reason']): void => {
          clearTimeout(timer);
          off();
          signal?.removeEventListener('abort', onAbort);
          resolve(why);
        };
        const off = entry.output.onChange(() => ready() && finish('output'));
        const timer = setTimeout(() => finish('timeout'), options.timeoutMs);
        void entry.ended.then(() => finish(ready() ? 'output' : 'exited'));
        const onAbort = (): void => {
          clearTimeout(timer);
          off();
          reject(new AppError('cancelled', 'Stopped by the user.'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    return { process: this.info(entry), output: entry.output.take(), reason };
  }

  /** Ends the process and everything it started; returns its last output. */
  async kill(id: string, by: 'agent' | 'user' | 'session end' = 'agent'): Promise<RunResult> {
    const entry = this.find(id);
    if (entry.record.status === 'running' && entry.handle) {
      entry.record.status = 'killed';
      this.deps.log.append({ type: 'kill', process: id, by });
      await entry.handle.kill();
      await Promise.race([entry.ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
    } else if (entry.record.status === 'unknown' && entry.record.group !== null) {
      this.deps.log.append({ type: 'kill', process: id, by });
      await this.deps.target.killGroup(entry.record.group);
      entry.record.status = 'killed';
      entry.record.endedAt = this.deps.now();
    } else if (entry.handle && entry.record.group !== null) {
      // The command itself ended, but what it started in the background may still run in its group.
      await entry.handle.kill();
    }
    this.changed(entry);
    return { process: this.info(entry), output: entry.output.take() };
  }

  async writeFile(path: string, content: string, cwd?: string): Promise<{ path: string; bytes: number }> {
    const written = await this.deps.target.writeFile(path, content, cwd);
    this.deps.log.append({ type: 'file', path: written.path, bytes: written.bytes, content: content.length > 1_000_000 ? `${content.slice(0, 1_000_000)}\n[… cut]` : content });
    return written;
  }

  /** The latest output of a process, for a live view; delivers nothing. */
  tail(id: string, chars: number): string {
    return this.find(id).output.tail(chars);
  }

  /** Ends every process still running (the session is over, or the host stops). */
  async closeAll(): Promise<void> {
    const running = [...this.entries.values()].filter((entry) => entry.record.status === 'running' && entry.handle);
    await Promise.all(running.map((entry) => this.kill(entry.record.id, 'session end').catch(() => undefined)));
  }

  private async settle(entry: Entry, waitMs: number, signal?: AbortSignal): Promise<'ended' | 'waiting'> {
    if (signal?.aborted) {
      await this.kill(entry.record.id, 'user');
      throw new AppError('cancelled', 'Stopped by the user.');
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const outcome = await Promise.race([
      entry.ended.then(() => 'ended' as const),
      new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), waitMs))),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted');
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (outcome === 'aborted') {
      // A command the user stopped the task during is not left running behind their back.
      await this.kill(entry.record.id, 'user');
      throw new AppError('cancelled', 'Stopped by the user.');
    }
    return outcome;
  }

  private watchPasswordPrompts(entry: Entry): void {
    let answeredAt = -1;
    let asking = false;
    entry.output.onChange(() => {
      const line = entry.output.partial();
      if (asking || entry.record.status !== 'running' || !PASSWORD_PROMPT.test(line) || entry.output.lines === answeredAt) return;
      asking = true;
      answeredAt = entry.output.lines;
      const ask = this.deps.onPasswordPrompt;
      if (!ask) return;
      ask({ processId: entry.record.id, command: entry.record.command, prompt: line.trim() })
        .then(
          (secret) => {
            if (secret === null) {
              this.deps.log.append({ type: 'note', text: `${entry.record.id} asked for a password and nobody gave one: interrupted it.` });
              entry.handle?.write('\x03');
            } else {
              // Only the fact goes to the log: the password goes to the terminal and nowhere else.
              this.deps.log.append({ type: 'note', text: `${entry.record.id} asked for a password; the user typed it (not logged).` });
              entry.handle?.write(`${secret}\r`);
            }
          },
          () => entry.handle?.write('\x03'),
        )
        .finally(() => (asking = false));
    });
  }

  private find(id: string): Entry {
    const entry = this.entries.get(id.trim());
    if (!entry) {
      const known = [...this.entries.keys()];
      throw new AppError('not_found', `There is no process ${id}${known.length > 0 ? `; known: ${known.join(', ')}` : ': none was started yet'}.`);
    }
    return entry;
  }

  private info(entry: Entry): ProcessInfo {
    return { ...entry.record, outputBytes: entry.output.bytes, outputLines: entry.output.lines, unread: entry.output.hasNew() };
  }

  private changed(entry: Entry): void {
    this.emit({ kind: 'process', process: this.info(entry) });
  }

  private emit(event: ShellEvent): void {
    // Subscribers first: the session saves a started process before anyone outside hears of it.
    for (const listener of this.listeners) listener(event);
    this.deps.onEvent?.(event);
  }
}

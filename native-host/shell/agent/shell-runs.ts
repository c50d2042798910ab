import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer } from '../../../shared/agent/approval';
import type { Provider } from '../../../shared/agent/providers/provider';
import { AppError } from '../../../shared/errors';
import { ShellRunParams, type ShellProcess, type ShellSessionSummary, type ShellTaskEvent } from '../../../shared/protocol/shell-protocol';
import type { Logger } from '../../log/logger';
import type { BridgeSession } from '../../mcp/bridge-server';
import type { McpServerPool } from '../../mcp/server-pool';
import { taskTools } from '../../mcp/task-tools';
import type { McpClientInfo } from '../../../shared/protocol';
import type { ShellAgentEnvironment } from './shell-environment';
import { shellTools } from './shell-tools';
import type { Validator } from '../command-validator';
import { searchLog } from '../session-log';
import type { ShellEvent } from '../shell-service';
import type { TargetSpec } from '../shell-target';
import { runShellTask } from './run-shell-task';
import { openShellSession, type ShellSession } from './shell-session';
import { listSessions, loadSessionFile, newSessionId, sessionPaths, type ShellSessionFile } from './shell-session-file';
import { stoppedAtCostCap } from '../../../shared/agent/cost-cap';

export interface ShellRunsDeps {
  sessionsRoot: string;
  rulesFile: string;
  /** Builds the model from the settings the side panel sent; throws a bad_config AppError that says what to fix. */
  createProvider: (settings: unknown) => Provider;
  /** The validator of act mode, from the same settings. */
  createValidator: (settings: unknown) => Validator;
  emit: (event: ShellTaskEvent) => void;
  home: string;
  localUser: string;
  env: NodeJS.ProcessEnv;
  track?: (child: ChildProcess) => void;
  log: Logger;
  now: () => number;
  /** How often batched output goes out, and how much of it one event carries at most. */
  outputEveryMs?: number;
  outputChars?: number;
  /** A bridge session to the browser, whose page tools the task gets (no second browser). */
  bridge?: (client: McpClientInfo, mode: 'ask' | 'act') => BridgeSession;
  /** The user's MCP servers, whose tools the task gets. */
  servers?: McpServerPool;
}

interface Pending {
  resolve(answer: { approved?: boolean; text?: string; alwaysAllowPrefix?: string }): void;
}

interface Running {
  sessionId: string;
  controller: AbortController;
  pending: Map<string, Pending>;
}

const SESSION_ID = /^[\w.-]{1,128}$/;

/**
 * Shell tasks started over the host channel (the side panel's Shell view). Everything a task waits on goes out as a
 * `shell.task` event and comes back through `answer`, only for an id it waits on. One task runs at a time; its session
 * stays open after it ends, so the processes it left running can still be watched and killed, until the host stops.
 */
export class ShellRuns {
  private running: Running | undefined;
  private readonly open = new Map<string, ShellSession>();
  private readonly batches = new Map<string, { text: string; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly deps: ShellRunsDeps) {}

  start(input: unknown): { sessionId: string; sessionDir: string } {
    const params = ShellRunParams.parse(input);
    return this.launch({ target: params.target, objective: params.objective, mode: params.mode, settings: params.provider, ...(params.maxSteps ? { maxSteps: params.maxSteps } : {}), ...(params.maxCostUsd ? { maxCostUsd: params.maxCostUsd } : {}), ...(params.waitSeconds ? { waitMs: params.waitSeconds * 1000 } : {}) });
  }

  async resume(params: { sessionId: string; provider: unknown; maxCostUsd?: number | undefined }): Promise<{ sessionId: string; sessionDir: string }> {
    const id = checkedId(params.sessionId);
    // A session still open here goes on only after its cost cap (in the same session, its processes kept).
    if (this.open.has(id) && (this.running?.sessionId === id || !(await this.stoppedAtCap(id)))) {
      throw new AppError('bad_request', `Session ${id} is open in this host already; only a session interrupted by a restart, or stopped at its cost cap, can be resumed.`);
    }
    return this.launch({ resume: id, settings: params.provider, ...(params.maxCostUsd ? { maxCostUsd: params.maxCostUsd } : {}) });
  }

  private async stoppedAtCap(sessionId: string): Promise<boolean> {
    const file = await loadSessionFile(sessionPaths(this.deps.sessionsRoot, sessionId).state).catch(() => undefined);
    return file?.agent ? stoppedAtCostCap(file.agent) : false;
  }

  answer(params: { sessionId: string; id: string; approved?: boolean; text?: string; alwaysAllowPrefix?: string }): boolean {
    const run = this.running;
    if (!run || run.sessionId !== params.sessionId) return false;
    const pending = run.pending.get(params.id);
    if (!pending) return false;
    run.pending.delete(params.id);
    pending.resolve({
      ...(params.approved === undefined ? {} : { approved: params.approved }),
      ...(params.text === undefined ? {} : { text: params.text }),
      ...(params.alwaysAllowPrefix === undefined ? {} : { alwaysAllowPrefix: params.alwaysAllowPrefix }),
    });
    return true;
  }

  stop(sessionId: string): boolean {
    if (!this.running || this.running.sessionId !== sessionId) return false;
    this.running.controller.abort(new AppError('cancelled', 'Stopped by the user.'));
    return true;
  }

  async kill(sessionId: string, processId: string): Promise<ShellProcess> {
    return (await this.session(sessionId).service.kill(processId, 'user')).process;
  }

  output(sessionId: string, processId: string, chars: number): string {
    return this.session(sessionId).service.tail(processId, chars);
  }

  /** Searches a session's log, open or not (the log is on disk). */
  async search(sessionId: string, query: { query: string; regex: boolean; context: number; maxResults: number }) {
    const id = checkedId(sessionId);
    const open = this.open.get(id);
    if (open) await open.log.flush().catch(() => undefined);
    if (query.regex) {
      try {
        new RegExp(query.query, 'i');
      } catch (error) {
        throw new AppError('invalid_params', `Not a regular expression: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return searchLog(sessionPaths(this.deps.sessionsRoot, id).log, { query: query.query, regex: query.regex, context: query.context, maxResults: query.maxResults }).catch((error: unknown) => {
      throw new AppError('not_found', `Session ${id} has no log to search (${error instanceof Error ? error.message : String(error)}).`);
    });
  }

  async sessions(): Promise<ShellSessionSummary[]> {
    const saved = await listSessions(this.deps.sessionsRoot);
    return saved.map((s) => ({ ...s, open: this.open.has(s.sessionId), resumable: s.resumable && !this.open.has(s.sessionId) }));
  }

  /** Ends every open session and what runs in it (the host is stopping). */
  async closeAll(): Promise<void> {
    this.running?.controller.abort(new AppError('cancelled', 'The host is stopping.'));
    await Promise.all([...this.open.values()].map((session) => session.close().catch(() => undefined)));
    this.open.clear();
  }

  private session(sessionId: string): ShellSession {
    const session = this.open.get(checkedId(sessionId));
    if (!session) throw new AppError('not_found', `Session ${sessionId} is not open in this host (it ended with an earlier host); its processes are listed in its log.`);
    return session;
  }

  private launch(start: { target?: TargetSpec; objective?: string; mode?: 'ask' | 'act'; settings: unknown; resume?: string; maxSteps?: number; maxCostUsd?: number; waitMs?: number }): { sessionId: string; sessionDir: string } {
    if (this.running) throw new AppError('busy', `A shell task is already running (session ${this.running.sessionId}); stop it first with shell.stop.`);
    const provider = this.deps.createProvider(start.settings);
    const validator = this.deps.createValidator(start.settings);
    const sessionId = start.resume ?? newSessionId(this.deps.now());
    const sessionDir = sessionPaths(this.deps.sessionsRoot, sessionId).dir;
    const run: Running = { sessionId, controller: new AbortController(), pending: new Map() };
    this.running = run;
    void this.closeIdle();
    void this.execute(run, start, provider, validator).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return { sessionId, sessionDir };
  }

  private async execute(run: Running, start: { target?: TargetSpec; objective?: string; mode?: 'ask' | 'act'; resume?: string; maxSteps?: number; maxCostUsd?: number; waitMs?: number }, provider: Provider, validator: Validator): Promise<void> {
    const { sessionId } = run;
    const emit = (event: ShellTaskEvent): void => this.deps.emit(event);
    const wait = (describe: (id: string) => ShellTaskEvent, signal: AbortSignal = run.controller.signal): Promise<{ approved?: boolean; text?: string; alwaysAllowPrefix?: string }> => {
      const id = randomUUID();
      const answer = new Promise<{ approved?: boolean; text?: string; alwaysAllowPrefix?: string }>((resolve, reject) => {
        const abort = (): void => {
          run.pending.delete(id);
          reject(new AppError('cancelled', 'Stopped by the user.'));
        };
        run.pending.set(id, {
          resolve: (reply) => {
            signal.removeEventListener('abort', abort);
            resolve(reply);
          },
        });
        if (signal.aborted) abort();
        else signal.addEventListener('abort', abort, { once: true });
      });
      emit(describe(id));
      return answer;
    };
    const sessionDir = sessionPaths(this.deps.sessionsRoot, sessionId).dir;
    let session: ShellSession;
    let reopened: ShellSessionFile | undefined;
    const kept = start.resume ? this.open.get(sessionId) : undefined;
    try {
      if (kept) reopened = await loadSessionFile(sessionPaths(this.deps.sessionsRoot, sessionId).state);
      session = kept ?? await openShellSession({
        target: start.target ?? { kind: 'local' },
        sessionsRoot: this.deps.sessionsRoot,
        sessionId,
        ...(start.resume ? { resume: start.resume } : {}),
        prompts: {
          confirmHostKey: async (request) => (await wait((id) => ({ sessionId, kind: 'hostkey', id, host: request.host, port: request.port, keyType: request.keyType, fingerprint: request.fingerprint, knownHostsFile: request.knownHostsFile }))).approved === true,
          secret: async (request) => {
            const answer = await wait((id) => ({ sessionId, kind: 'secret', id, prompt: request.kind === 'sudo' ? `${request.target} asks: ${request.prompt}` : request.prompt }));
            return answer.text ?? null;
          },
        },
        home: this.deps.home,
        localUser: this.deps.localUser,
        env: this.deps.env,
        cwd: this.deps.home,
        ...(this.deps.track ? { track: this.deps.track } : {}),
        onEvent: (event) => this.forward(sessionId, event),
        logger: this.deps.log,
        now: this.deps.now,
      });
    } catch (error) {
      emit({ sessionId, kind: 'finished', status: 'failed', summary: error instanceof Error ? error.message : String(error), sessionDir });
      return;
    }
    this.open.set(sessionId, session);
    const saved = reopened ?? session.saved;
    const objective = saved?.objective ?? start.objective ?? '';
    const mode = saved?.mode ?? start.mode ?? 'ask';
    emit({ sessionId, kind: 'started', sessionDir, objective, mode, target: session.target.label, resumed: saved !== undefined });
    emit({ sessionId, kind: 'connected', description: session.description });
    for (const process of session.service.list()) emit({ sessionId, kind: 'process', process });
    let end: { status: string; summary: string };
    const browser = this.deps.bridge?.({ name: 'Deputy shell task', version: '' }, mode);
    try {
      const extra = await taskTools<ShellAgentEnvironment>({
        ...(browser ? { page: (name, args, callId, signal) => browser.call({ callId, name, arguments: args }, signal ?? run.controller.signal) } : {}),
        ...(this.deps.servers ? { servers: this.deps.servers } : {}),
        log: this.deps.log,
        taken: shellTools().map((tool) => tool.name),
      });
      for (const note of extra.notes) session.log.append({ type: 'note', text: note });
      const state = await runShellTask({
        ...(reopened ? { saved: reopened } : {}),
        extraTools: extra.tools,
        session,
        objective,
        mode,
        provider,
        validator,
        rulesFile: this.deps.rulesFile,
        ...(start.maxSteps ? { maxSteps: start.maxSteps } : {}),
        ...(start.maxCostUsd ? { maxCostUsd: start.maxCostUsd } : {}),
        ...(start.waitMs ? { waitMs: start.waitMs } : {}),
        signal: run.controller.signal,
        onTrace: (record) => emit({ sessionId, kind: 'trace', record: { ...record } }),
        approve: async (request, signal): Promise<ApprovalAnswer> => {
          const reply = await wait(
            (id) => ({ sessionId, kind: 'approval', id, intent: request.intent, reason: request.reason, classes: request.classes, ...(request.alwaysAllowPrefix ? { alwaysAllowPrefix: request.alwaysAllowPrefix } : {}) }),
            signal ?? run.controller.signal,
          );
          if (reply.approved !== true) return { approved: false, ...(reply.text ? { note: reply.text } : {}) };
          return { approved: true, ...(reply.alwaysAllowPrefix ? { alwaysAllowPrefix: reply.alwaysAllowPrefix } : {}) };
        },
        askUser: async (question, signal) => (await wait((id) => ({ sessionId, kind: 'question', id, question }), signal ?? run.controller.signal)).text ?? 'The user did not answer.',
        logger: this.deps.log,
        now: this.deps.now,
      });
      end = { status: state.status, summary: state.outcome?.summary ?? state.endReason ?? '' };
    } catch (error) {
      end = { status: 'failed', summary: error instanceof Error ? error.message : String(error) };
    } finally {
      browser?.closed('The shell task ended.');
    }
    this.flushAll(sessionId);
    // Not running any more once it says so: the panel may resume it (after its cost cap) on that very event.
    if (this.running === run) this.running = undefined;
    emit({ sessionId, kind: 'finished', ...end, sessionDir });
  }

  /** Sessions with nothing running are closed when a new task starts: their connections are not kept for nothing. */
  private async closeIdle(): Promise<void> {
    for (const [id, session] of this.open) {
      if (this.running?.sessionId === id || session.service.list().some((p) => p.status === 'running')) continue;
      this.open.delete(id);
      await session.close().catch(() => undefined);
    }
  }

  private forward(sessionId: string, event: ShellEvent): void {
    if (event.kind === 'process') {
      this.flush(sessionId, event.process.id);
      this.deps.emit({ sessionId, kind: 'process', process: event.process });
      return;
    }
    // Output is batched: a command printing thousands of lines a second sends a few events, not thousands.
    const key = `${sessionId}\n${event.processId}`;
    const batch = this.batches.get(key);
    if (batch) {
      batch.text += event.text;
      return;
    }
    this.batches.set(key, { text: event.text, timer: setTimeout(() => this.flush(sessionId, event.processId), this.deps.outputEveryMs ?? 250) });
  }

  private flush(sessionId: string, processId: string): void {
    const key = `${sessionId}\n${processId}`;
    const batch = this.batches.get(key);
    if (!batch) return;
    clearTimeout(batch.timer);
    this.batches.delete(key);
    const max = this.deps.outputChars ?? 16_000;
    const text = batch.text.length > max ? `[… ${batch.text.length - max} characters not shown here: the session log has them]\n${batch.text.slice(batch.text.length - max)}` : batch.text;
    this.deps.emit({ sessionId, kind: 'output', processId, text });
  }

  private flushAll(sessionId: string): void {
    for (const key of [...this.batches.keys()]) if (key.startsWith(`${sessionId}\n`)) this.flush(sessionId, key.slice(sessionId.length + 1));
  }
}

function checkedId(sessionId: string): string {
  if (!SESSION_ID.test(sessionId) || sessionId.startsWith('.')) throw new AppError('invalid_params', `"${sessionId.slice(0, 40)}" is not a session id.`);
  return sessionId;
}

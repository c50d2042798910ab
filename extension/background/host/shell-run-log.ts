import {
  SHELL_OUTPUT_TAIL_CHARS,
  SHELL_RUN_MAX_PROCESSES,
  SHELL_RUN_MAX_STEPS,
  SHELL_STEP_RESULT_CHARS,
  ShellRunRecord,
  ShellTaskEvent,
  type HostStatus,
  type ShellRunProcess,
  type ShellRunStep,
} from '../../../shared/protocol';
import { stoppedAtCostCap } from '../../../shared/agent/cost-cap';
import type { Store } from '../../platform/storage';
import { RunRecordStore } from '../stores/run-record-store';

const KEY = 'shellRun';

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A record for a session the panel has not heard of yet (an event can arrive before `shell.run` has answered). */
export function newShellRun(sessionId: string, now: number, start: Partial<Pick<ShellRunRecord, 'sessionDir' | 'objective' | 'target' | 'mode'>> = {}): ShellRunRecord {
  return {
    sessionId,
    sessionDir: start.sessionDir ?? '',
    objective: start.objective ?? '',
    target: start.target ?? '',
    description: null,
    mode: start.mode ?? 'ask',
    status: 'connecting',
    resumed: false,
    startedAt: now,
    updatedAt: now,
    steps: [],
    droppedSteps: 0,
    processes: [],
    approval: null,
    question: null,
    secret: null,
    hostKey: null,
    stopRequested: false,
    summary: null,
    resumable: false,
  };
}

function stepOf(record: Record<string, unknown>): ShellRunStep | undefined {
  if (record.type !== 'tool' || typeof record.callId !== 'string' || typeof record.name !== 'string') return undefined;
  return {
    step: typeof record.step === 'number' && record.step >= 0 ? Math.floor(record.step) : 0,
    callId: record.callId,
    tool: record.name,
    arguments: cut(typeof record.arguments === 'string' ? record.arguments : '', 600),
    status: typeof record.status === 'string' ? record.status : 'unknown',
    ok: typeof record.ok === 'boolean' ? record.ok : null,
    result: typeof record.content === 'string' ? cut(record.content, SHELL_STEP_RESULT_CHARS) : null,
    at: typeof record.at === 'number' ? record.at : 0,
  };
}

const finalStatus = (status: string): ShellRunRecord['status'] => (status === 'completed' || status === 'stopped' ? status : 'failed');

function withProcess(processes: ShellRunProcess[], id: string, change: (current: ShellRunProcess | undefined) => ShellRunProcess | undefined): ShellRunProcess[] {
  const current = processes.find((p) => p.id === id);
  const next = change(current);
  if (!next) return processes;
  const list = current ? processes.map((p) => (p.id === id ? next : p)) : [...processes, next];
  // The oldest finished ones go first when there are too many to keep.
  while (list.length > SHELL_RUN_MAX_PROCESSES) {
    const drop = list.findIndex((p) => p.status !== 'running');
    list.splice(drop === -1 ? 0 : drop, 1);
  }
  return list;
}

/** Folds one host event into the session's record (a new object; the old one is left as it was). */
export function applyShellEvent(current: ShellRunRecord | undefined, event: ShellTaskEvent, now: number): ShellRunRecord {
  const base = current?.sessionId === event.sessionId ? current : newShellRun(event.sessionId, now);
  const next: ShellRunRecord = { ...base, updatedAt: now };
  switch (event.kind) {
    case 'started':
      return { ...next, status: 'running', sessionDir: event.sessionDir, objective: event.objective, mode: event.mode, target: event.target, resumed: event.resumed, hostKey: null, secret: null, resumable: false };
    case 'connected':
      return { ...next, description: event.description };
    case 'trace': {
      const step = stepOf(event.record);
      if (!step) return next;
      const steps = [...next.steps.filter((s) => s.callId !== step.callId), step];
      const over = Math.max(0, steps.length - SHELL_RUN_MAX_STEPS);
      // A call the user just answered has now run (or was refused): its card is done.
      return { ...next, steps: steps.slice(over), droppedSteps: next.droppedSteps + over, approval: null };
    }
    case 'approval':
      return {
        ...next,
        approval: { id: event.id, intent: cut(event.intent, 600), reason: cut(event.reason, 600), classes: event.classes, ...(event.alwaysAllowPrefix ? { alwaysAllowPrefix: event.alwaysAllowPrefix } : {}), askedAt: now },
      };
    case 'question':
      return { ...next, question: { id: event.id, text: cut(event.question, 1000), askedAt: now } };
    case 'secret':
      return { ...next, secret: { id: event.id, prompt: cut(event.prompt, 300), askedAt: now } };
    case 'hostkey':
      return { ...next, hostKey: { id: event.id, host: event.host, port: event.port, keyType: event.keyType, fingerprint: event.fingerprint, knownHostsFile: event.knownHostsFile, askedAt: now } };
    case 'process':
      return { ...next, processes: withProcess(next.processes, event.process.id, (p) => ({ ...event.process, tail: p?.tail ?? '' })) };
    case 'output':
      return {
        ...next,
        processes: withProcess(next.processes, event.processId, (p) => {
          if (!p) return undefined;
          const tail = p.tail + event.text;
          return { ...p, tail: tail.length > SHELL_OUTPUT_TAIL_CHARS ? tail.slice(tail.length - SHELL_OUTPUT_TAIL_CHARS) : tail };
        }),
      };
    case 'finished':
      // A session stopped at its cost cap goes on under the cap then in Settings.
      return { ...next, status: finalStatus(event.status), summary: cut(event.summary, 4000), sessionDir: event.sessionDir || next.sessionDir, approval: null, question: null, secret: null, hostKey: null, resumable: event.status === 'stopped' && stoppedAtCostCap({ status: 'stopped', endReason: event.summary }) };
  }
}

/**
 * The latest shell session as the side panel shows it, in chrome.storage.session: a panel opened in the middle of a
 * task (or after the service worker restarted) reads it back with `shell.current`. Password prompts are kept as
 * prompts only; what the user types goes to the host and is never stored here.
 */
export class ShellRunLog {
  private readonly records: RunRecordStore<ShellRunRecord>;

  constructor(private readonly deps: { store: Store; broadcast: (record: ShellRunRecord) => void; now: () => number }) {
    this.records = new RunRecordStore({ store: deps.store, key: KEY, schema: ShellRunRecord, broadcast: deps.broadcast });
  }

  current(): Promise<ShellRunRecord | null> {
    return this.records.current();
  }

  /** A session the panel just started or resumed. */
  begin(start: { sessionId: string; sessionDir: string; objective: string; target: string; mode: 'ask' | 'act' }): Promise<ShellRunRecord | undefined> {
    this.records.markLive(start.sessionId);
    return this.records.change((current) => {
      const base = current?.sessionId === start.sessionId ? current : newShellRun(start.sessionId, this.deps.now());
      return { ...base, sessionDir: base.sessionDir || start.sessionDir, objective: base.objective || start.objective, target: base.target || start.target, mode: start.mode };
    });
  }

  /** A host `shell.task` event; anything that does not parse is ignored. */
  apply(data: unknown): Promise<ShellRunRecord | undefined> {
    return this.records.applyEvent(data, ShellTaskEvent, (event) => event.sessionId, (current, event) => applyShellEvent(current, event, this.deps.now()));
  }

  /** The user answered the card with this id: it goes away at once instead of waiting for the next event. */
  answered(sessionId: string, id: string): Promise<ShellRunRecord | undefined> {
    return this.records.change((current) => {
      if (!current || current.sessionId !== sessionId) return undefined;
      const clear = <C extends { id: string } | null>(card: C): C | null => (card?.id === id ? null : card);
      return { ...current, updatedAt: this.deps.now(), approval: clear(current.approval), question: clear(current.question), secret: clear(current.secret), hostKey: clear(current.hostKey) };
    });
  }

  stopRequested(sessionId: string): Promise<ShellRunRecord | undefined> {
    return this.records.change((current) =>
      current?.sessionId === sessionId && (current.status === 'running' || current.status === 'connecting') ? { ...current, stopRequested: true, updatedAt: this.deps.now() } : undefined,
    );
  }

  /** A process the user killed from the panel, as the host reported it back. */
  processChanged(sessionId: string, process: Omit<ShellRunProcess, 'tail'>): Promise<ShellRunRecord | undefined> {
    return this.records.change((current) =>
      current?.sessionId === sessionId ? { ...current, updatedAt: this.deps.now(), processes: withProcess(current.processes, process.id, (p) => ({ ...process, tail: p?.tail ?? '' })) } : undefined,
    );
  }

  /**
   * The host went away, or this service worker restarted (its host went with it): a session still running ends here,
   * and can be resumed from its last saved step.
   */
  hostStatus(status: HostStatus): Promise<ShellRunRecord | undefined> {
    if (status.state === 'connecting') return Promise.resolve(undefined);
    return this.records.change((current) =>
      (current?.status === 'running' || current?.status === 'connecting') && (status.state !== 'connected' || !this.records.isLive(current.sessionId))
        ? {
            ...current,
            status: 'failed',
            summary: `The host stopped during the session (${status.state === 'connected' ? 'it was restarted' : (status.message ?? status.state)}). Resume it to go on from its last step; no command that had started is run again.`,
            resumable: true,
            approval: null,
            question: null,
            secret: null,
            hostKey: null,
            processes: current.processes.map((p) => (p.status === 'running' ? { ...p, status: 'unknown' as const } : p)),
            updatedAt: this.deps.now(),
          }
        : undefined,
    );
  }
}

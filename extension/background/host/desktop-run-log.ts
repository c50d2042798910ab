import {
  DESKTOP_RUN_MAX_SHOTS,
  DESKTOP_RUN_MAX_STEPS,
  DesktopRunRecord,
  DesktopTaskEvent,
  type DesktopRunStep,
  type HostStatus,
} from '../../../shared/protocol';
import { Plan } from '../../../shared/agent/plan';
import type { Store } from '../../platform/storage';
import { RunRecordStore } from '../stores/run-record-store';

const KEY = 'desktopRun';
const CUT = 300;

const cut = (text: string): string => (text.length > CUT ? `${text.slice(0, CUT - 1)}…` : text);

/** A record for a run the panel has not heard of yet (an event can arrive before `desktop.run` has answered). */
export function newDesktopRun(runId: string, now: number, start: Partial<Pick<DesktopRunRecord, 'runDir' | 'task' | 'mode'>> = {}): DesktopRunRecord {
  return {
    runId,
    runDir: start.runDir ?? '',
    task: start.task ?? '',
    mode: start.mode ?? 'ask',
    status: 'running',
    startedAt: now,
    updatedAt: now,
    steps: [],
    droppedSteps: 0,
    shots: [],
    plan: null,
    approval: null,
    question: null,
    stopRequested: false,
    summary: null,
    stoppedByHotkey: false,
  };
}

/** The plan of the last update_plan call in a model reply, as proposed (before any approval). */
function proposedPlan(record: Record<string, unknown>): Plan | undefined {
  if (record.type !== 'reply' || !Array.isArray(record.toolCalls)) return undefined;
  let found: Plan | undefined;
  for (const call of record.toolCalls as unknown[]) {
    if (typeof call !== 'object' || call === null || !('name' in call) || call.name !== 'update_plan' || !('arguments' in call)) continue;
    try {
      const parsed = Plan.safeParse(JSON.parse(String(call.arguments)));
      if (parsed.success) found = parsed.data;
    } catch {
      // Arguments that are not JSON are reported to the model by the loop; there is no plan to show.
    }
  }
  return found;
}

function stepOf(record: Record<string, unknown>): DesktopRunStep | undefined {
  if (record.type !== 'tool' || typeof record.callId !== 'string' || typeof record.name !== 'string') return undefined;
  return {
    step: typeof record.step === 'number' && record.step >= 0 ? Math.floor(record.step) : 0,
    callId: record.callId,
    action: record.name,
    arguments: cut(typeof record.arguments === 'string' ? record.arguments : ''),
    status: typeof record.status === 'string' ? record.status : 'unknown',
    ok: typeof record.ok === 'boolean' ? record.ok : null,
    result: typeof record.content === 'string' ? cut(record.content) : null,
    at: typeof record.at === 'number' ? record.at : 0,
  };
}

const finalStatus = (status: string): DesktopRunRecord['status'] => (status === 'completed' || status === 'stopped' ? status : 'failed');

/** Folds one host event into the run's record (a new object; the old one is left as it was). */
export function applyDesktopEvent(current: DesktopRunRecord | undefined, event: DesktopTaskEvent, now: number): DesktopRunRecord {
  const base = current?.runId === event.runId ? current : newDesktopRun(event.runId, now);
  const next: DesktopRunRecord = { ...base, updatedAt: now };
  switch (event.kind) {
    case 'trace': {
      const plan = proposedPlan(event.record);
      if (plan) return { ...next, plan };
      const step = stepOf(event.record);
      if (!step) return next;
      const steps = [...next.steps.filter((s) => s.callId !== step.callId), step];
      const over = Math.max(0, steps.length - DESKTOP_RUN_MAX_STEPS);
      // A call the user just answered has now run (or was refused): its card is done.
      return { ...next, steps: steps.slice(over), droppedSteps: next.droppedSteps + over, approval: null };
    }
    case 'screenshot': {
      const shots = [...next.shots.filter((s) => s.step !== event.step), { step: event.step, pngPath: event.pngPath, thumbnail: event.thumbnail }];
      return { ...next, shots: shots.slice(-DESKTOP_RUN_MAX_SHOTS) };
    }
    case 'approval':
      return { ...next, approval: { id: event.id, intent: cut(event.intent), reason: cut(event.reason), classes: event.classes, askedAt: now } };
    case 'question':
      return { ...next, question: { id: event.id, text: event.question.slice(0, 1000), askedAt: now } };
    case 'finished':
      return {
        ...next,
        status: finalStatus(event.status),
        summary: event.summary.slice(0, 2000),
        runDir: event.runDir,
        stoppedByHotkey: event.stoppedByHotkey,
        approval: null,
        question: null,
      };
  }
}

/**
 * The latest desktop run as the side panel shows it, kept in chrome.storage.session: a panel opened in the middle of
 * a run (or after the service worker restarted) reads it back with `desktop.current`. Every change goes through one
 * queue, so events that arrive together are applied in order, and each result is sent to the open panels.
 */
export class DesktopRunLog {
  private readonly records: RunRecordStore<DesktopRunRecord>;

  constructor(
    private readonly deps: { store: Store; broadcast: (record: DesktopRunRecord) => void; now: () => number },
  ) {
    this.records = new RunRecordStore({ store: deps.store, key: KEY, schema: DesktopRunRecord, broadcast: deps.broadcast });
  }

  current(): Promise<DesktopRunRecord | null> {
    return this.records.current();
  }

  /** A run the panel just started: what the user asked for, in which mode, and where its folder is. */
  begin(start: { runId: string; runDir: string; task: string; mode: 'ask' | 'act' }): Promise<DesktopRunRecord | undefined> {
    this.records.markLive(start.runId);
    return this.records.change((current) => {
      const base = current?.runId === start.runId ? current : newDesktopRun(start.runId, this.deps.now());
      return { ...base, runDir: base.runDir || start.runDir, task: start.task, mode: start.mode };
    });
  }

  /** A host `desktop.task` event; anything that does not parse is ignored. */
  apply(data: unknown): Promise<DesktopRunRecord | undefined> {
    return this.records.applyEvent(data, DesktopTaskEvent, (event) => event.runId, (current, event) => applyDesktopEvent(current, event, this.deps.now()));
  }

  /** The user answered the card with this id: it goes away at once instead of waiting for the next step. */
  answered(runId: string, id: string): Promise<DesktopRunRecord | undefined> {
    return this.records.change((current) => {
      if (!current || current.runId !== runId) return undefined;
      return {
        ...current,
        updatedAt: this.deps.now(),
        approval: current.approval?.id === id ? null : current.approval,
        question: current.question?.id === id ? null : current.question,
      };
    });
  }

  stopRequested(runId: string): Promise<DesktopRunRecord | undefined> {
    return this.records.change((current) => (current?.runId === runId && current.status === 'running' ? { ...current, stopRequested: true, updatedAt: this.deps.now() } : undefined));
  }

  /**
   * The host went away, or this service worker restarted (its host went with it): a run still marked running cannot
   * finish any more, and the panel should say so.
   */
  hostStatus(status: HostStatus): Promise<DesktopRunRecord | undefined> {
    if (status.state === 'connecting') return Promise.resolve(undefined);
    return this.records.change((current) =>
      current?.status === 'running' && (status.state !== 'connected' || !this.records.isLive(current.runId))
        ? {
            ...current,
            status: 'failed',
            summary: `The host stopped during the run (${status.state === 'connected' ? 'it was restarted' : (status.message ?? status.state)}); the run folder holds the steps done so far.`,
            approval: null,
            question: null,
            updatedAt: this.deps.now(),
          }
        : undefined,
    );
  }
}

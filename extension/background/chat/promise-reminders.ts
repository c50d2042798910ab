import type { TaskRecord } from '../../../shared/protocol';
import type { Notice } from '../../platform/notifications';

/**
 * Support's dated promises become reminders (issue 31, item 4): each promise in a case file gets an alarm at its due
 * time; when it rings (or at start, for one that fell due while the browser was closed) the user gets a notification
 * that quotes the promise, the case in History gets a note, and a click opens the case. A promise is reminded once.
 */

export const PROMISE_ALARM = 'deputy-promise:';
export const PROMISE_NOTICE = 'promise:';

export interface PromiseReminderDeps {
  setAlarm(name: string, when: number): Promise<void>;
  alarmNames(prefix: string): Promise<string[]>;
  show(notice: Notice): Promise<void>;
  /** Every task record (History). */
  list(): Promise<TaskRecord[]>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Marks a promise reminded and adds the case's note, saved. */
  markReminded(taskId: string, index: number, at: number, note: string): Promise<void>;
  now(): number;
  log: { info(message: string, data?: Record<string, unknown>): void; warn(message: string, data?: Record<string, unknown>): void };
}

export function alarmName(taskId: string, index: number): string {
  return `${PROMISE_ALARM}${taskId}:${index}`;
}

export function parseAlarm(name: string): { taskId: string; index: number } | null {
  if (!name.startsWith(PROMISE_ALARM)) return null;
  const rest = name.slice(PROMISE_ALARM.length);
  const cut = rest.lastIndexOf(':');
  const index = Number(rest.slice(cut + 1));
  if (cut <= 0 || !Number.isInteger(index) || index < 0) return null;
  return { taskId: rest.slice(0, cut), index };
}

/** The task a promise notice belongs to, or undefined when the id is not one of ours. */
export function taskOfPromiseNotice(id: string): string | undefined {
  return id.startsWith(PROMISE_NOTICE) ? id.slice(PROMISE_NOTICE.length).split(':')[0] : undefined;
}

/** Promises of a record still to be reminded, with their index in the case file. */
function waiting(record: TaskRecord): { index: number; dueAt: number; quote: string; when: string }[] {
  return (record.chat?.promises ?? []).flatMap((promise, index) => (promise.remindedAt === undefined ? [{ index, dueAt: promise.dueAt, quote: promise.quote, when: promise.when }] : []));
}

export class PromiseReminders {
  /** Alarms set by this worker, so a record saved at every step does not set its alarm again each time. */
  private readonly set = new Set<string>();

  constructor(private readonly deps: PromiseReminderDeps) {}

  /** A case saved: an alarm for each promise that has none yet. */
  async update(record: TaskRecord): Promise<void> {
    for (const promise of waiting(record)) await this.schedule(record.id, promise.index, promise.dueAt);
  }

  /** At start: promises already due are reminded now, the rest get their alarm again (a browser restart may drop them). */
  async reconcile(): Promise<void> {
    for (const name of await this.deps.alarmNames(PROMISE_ALARM)) this.set.add(name);
    for (const record of await this.deps.list()) {
      for (const promise of waiting(record)) {
        if (promise.dueAt <= this.deps.now()) await this.remind(record.id, promise.index);
        else await this.schedule(record.id, promise.index, promise.dueAt);
      }
    }
  }

  private async schedule(taskId: string, index: number, dueAt: number): Promise<void> {
    const name = alarmName(taskId, index);
    if (this.set.has(name)) return;
    this.set.add(name);
    await this.deps.setAlarm(name, Math.max(dueAt, this.deps.now() + 1000));
    this.deps.log.info('promise reminder set', { taskId, dueAt });
  }

  /** An alarm rang. */
  async ring(name: string): Promise<void> {
    const which = parseAlarm(name);
    if (!which) return;
    this.set.delete(name);
    await this.remind(which.taskId, which.index);
  }

  private async remind(taskId: string, index: number): Promise<void> {
    const record = await this.deps.get(taskId);
    const promise = record?.chat?.promises?.[index];
    if (!record || !promise || promise.remindedAt !== undefined) return;
    const due = new Date(promise.dueAt).toISOString().slice(0, 10);
    await this.deps.markReminded(taskId, index, this.deps.now(), `Support's promise fell due on ${due}: "${promise.quote}" Check whether it was kept; if not, follow up from this case.`);
    await this.deps.show({
      id: `${PROMISE_NOTICE}${taskId}:${index}`,
      title: `Support's promise is due (${record.site})`,
      message: `"${promise.quote}" (${promise.when}). Open the case to check it was kept.`,
    });
    this.deps.log.info('promise reminded', { taskId, index });
  }
}

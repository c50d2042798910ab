import type { Logger } from '../../../shared/logger';
import type { TaskRecord } from '../../../shared/protocol';
import type { Notice } from '../../platform/notifications';

export interface AttentionNoticeDeps {
  /** True while a side panel, popup or Deputy page is open: it shows the card itself. */
  hasOpenUiPage(): Promise<boolean>;
  show(notice: Notice): Promise<void>;
  clear(id: string): Promise<void>;
  log: Logger;
}

// A notice's id names what it is about and the tab, so a click knows where to go.
const NOTICE_ID = /^(approval|question):(\d+):/;

/** The tab a notice is about, from its id, or undefined for an id that is not one of ours. */
export function tabOfNotice(id: string): number | undefined {
  const tab = NOTICE_ID.exec(id)?.[2];
  return tab === undefined ? undefined : Number(tab);
}

export function isAttentionNotice(id: string): boolean {
  return NOTICE_ID.test(id);
}

/** What the task waits for the user to do, as a notice, or null when it waits for nothing. */
export function noticeOf(record: TaskRecord): Notice | null {
  if (record.approval) {
    return { id: `approval:${record.tabId}:${record.approval.id}`, title: `Deputy needs your approval on ${record.site}`, message: record.approval.intent };
  }
  if (record.question) {
    return { id: `question:${record.tabId}:${record.question.id}`, title: `Deputy has a question on ${record.site}`, message: record.question.text };
  }
  return null;
}

/**
 * Desktop notifications for approvals and questions that wait while no Deputy page is open to show their card, so a
 * closed panel still gets the user's attention. Each is cleared as soon as it is answered (or its task ends).
 */
export class AttentionNotices {
  /** By task: the notice shown for it. */
  private readonly shown = new Map<string, Notice>();
  /** By task: what it waits for now, as last seen. */
  private readonly waiting = new Map<string, string | undefined>();
  /** Notices already decided on (shown or not), so a record saved again is not announced twice. */
  private readonly decided = new Set<string>();

  constructor(private readonly deps: AttentionNoticeDeps) {}

  /** Ids of the notices shown now: anything else of ours is left from an earlier worker. */
  get shownIds(): ReadonlySet<string> {
    return new Set(this.current().map((notice) => notice.id));
  }

  /** The notices shown now, with their words (the browser tells only their ids). */
  current(): Notice[] {
    return [...this.shown.values()];
  }

  async update(record: TaskRecord): Promise<void> {
    const notice = noticeOf(record);
    this.waiting.set(record.id, notice?.id);
    const current = this.shown.get(record.id)?.id;
    if (current !== undefined && current !== notice?.id) {
      this.shown.delete(record.id);
      await this.deps.clear(current);
    }
    if (!notice || this.decided.has(notice.id)) return;
    this.decided.add(notice.id);
    if (await this.deps.hasOpenUiPage()) return;
    // Answered while we looked for an open page: nothing to announce any more.
    if (this.waiting.get(record.id) !== notice.id) return;
    this.shown.set(record.id, notice);
    this.deps.log.info('notified', { taskId: record.id, kind: notice.id.split(':')[0] });
    await this.deps.show(notice);
  }

  /** The user clicked a notice: it has done its job. */
  async clicked(id: string): Promise<void> {
    for (const [taskId, shown] of this.shown) if (shown.id === id) this.shown.delete(taskId);
    await this.deps.clear(id);
  }
}

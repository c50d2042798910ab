import type { TaskRecord } from '../../../shared/protocol';
import type { Logger } from '../../../shared/logger';
import type { TabBadge } from '../../platform/tab-marker';

export interface TabMarkerDeps {
  setBadge: (tabId: number, badge: TabBadge | null) => Promise<void>;
  setOutline: (tabId: number, on: boolean) => Promise<boolean>;
  isActive: (record: TaskRecord) => boolean;
  log: Pick<Logger, 'warn'>;
}

const WORKING: TabBadge = { text: '●', color: '#2563eb', title: 'Deputy is working in this tab' };
const WAITING: TabBadge = { text: '!', color: '#b45309', title: 'Deputy is waiting for you in this tab' };

/**
 * Shows which tab a task controls while it runs: the toolbar badge for that tab (a dot, or "!" while the task waits
 * for the user) and an outline around its page, both taken away when the task ends. The browser drops a tab's badge
 * and the page's outline when the tab navigates, so both are drawn again after each load while the task runs.
 */
export class TabMarkers {
  /** Marked tab -> the task that controls it and the badge it shows. */
  private readonly marked = new Map<number, { taskId: string; badge: TabBadge }>();

  constructor(private readonly deps: TabMarkerDeps) {}

  update(record: TaskRecord): void {
    // A task that moved to another tab lets go of the one it left.
    for (const [tabId, mark] of this.marked) if (mark.taskId === record.id && tabId !== record.tabId) this.unmark(tabId);
    const current = this.marked.get(record.tabId);
    if (!this.deps.isActive(record)) {
      if (current?.taskId === record.id) this.unmark(record.tabId);
      return;
    }
    const badge = record.approval !== null || record.question !== null ? WAITING : WORKING;
    if (current?.taskId === record.id && current.badge === badge) return;
    this.marked.set(record.tabId, { taskId: record.id, badge });
    this.apply(record.tabId, badge, current === undefined || current.taskId !== record.id);
  }

  /** A marked tab loaded a page (or changed its address): its badge and outline are drawn again. */
  navigated(tabId: number): void {
    const current = this.marked.get(tabId);
    if (current) this.apply(tabId, current.badge, true);
  }

  removed(tabId: number): void {
    this.marked.delete(tabId);
  }

  isMarked(tabId: number): boolean {
    return this.marked.has(tabId);
  }

  private apply(tabId: number, badge: TabBadge, outline: boolean): void {
    this.deps.setBadge(tabId, badge).catch((error: unknown) => this.deps.log.warn('tab badge not set', { tabId, error: String(error) }));
    if (outline) void this.deps.setOutline(tabId, true);
  }

  private unmark(tabId: number): void {
    this.marked.delete(tabId);
    this.deps.setBadge(tabId, null).catch((error: unknown) => this.deps.log.warn('tab badge not cleared', { tabId, error: String(error) }));
    void this.deps.setOutline(tabId, false);
  }
}

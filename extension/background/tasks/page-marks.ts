import type { TaskRecord } from '../../../shared/protocol';

export interface PageMarkDeps {
  /** Takes back the approval highlights on a tab (`all`: the controlled-tab frame too). */
  clear: (tabId: number, all: boolean) => Promise<boolean>;
  isActive: (record: TaskRecord) => boolean;
}

/**
 * Leaves no trace on the user's page: the element an approval card outlined is given back its own look as soon as
 * the card is answered (or goes for any other reason), and every mark goes when the task ends or stops. The tab
 * markers draw and remove the frame while the task runs; this takes back what the cards drew.
 */
export class PageMarks {
  /** Task -> the card it showed last, and the tab it showed it on. */
  private readonly shown = new Map<string, { approvalId: string | null; tabId: number }>();

  constructor(private readonly deps: PageMarkDeps) {}

  update(record: TaskRecord): void {
    const before = this.shown.get(record.id);
    const approvalId = record.approval?.id ?? null;
    if (!this.deps.isActive(record)) {
      // Only on the change from running to ended: an ended task's later updates (a rename, History) touch no page.
      if (before === undefined) return;
      void this.deps.clear(record.tabId, true);
      if (before.tabId !== record.tabId) void this.deps.clear(before.tabId, true);
      this.shown.delete(record.id);
      return;
    }
    this.shown.set(record.id, { approvalId, tabId: record.tabId });
    // The card the outline was for was answered (or replaced by another): its outline goes now, not when it times out.
    if (before?.approvalId && before.approvalId !== approvalId) void this.deps.clear(before.tabId, false);
  }
}

/**
 * A new worker knows of no mark an earlier one drew: every tab is cleaned before the tasks that still run resume (they
 * draw their frame again).
 */
export async function clearAllPageMarks(tabIds: () => Promise<number[]>, clear: PageMarkDeps['clear']): Promise<void> {
  await Promise.all((await tabIds()).map((tabId) => clear(tabId, true)));
}

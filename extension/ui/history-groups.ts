import type { TaskRecord } from '../../shared/protocol';

/** Tasks grouped by site, newest first within a site, sites ordered by their newest task. */
export function groupBySite(records: readonly TaskRecord[]): { site: string; records: TaskRecord[] }[] {
  const groups = new Map<string, TaskRecord[]>();
  for (const record of [...records].sort((a, b) => b.createdAt - a.createdAt)) {
    const list = groups.get(record.site) ?? [];
    list.push(record);
    groups.set(record.site, list);
  }
  return [...groups].map(([site, list]) => ({ site, records: list }));
}

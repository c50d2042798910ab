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

/** The tasks whose words or site contain every word of the query, in any case; all of them for an empty query. */
export function matchingTasks(records: readonly TaskRecord[], query: string): TaskRecord[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return records.filter((record) => {
    const haystack = `${record.text} ${record.site}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

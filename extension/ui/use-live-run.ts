import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { BackgroundClient } from './background-client';
import { followLive } from './follow-live';

/** What a run record needs for the panel to tell a newer version from an older one. */
export interface RunVersion {
  updatedAt: number;
  startedAt: number;
}

/** Which record to show: a newer version of the run shown, or a run started later. Never an older one. */
export function nextRun<T extends RunVersion>(current: T | undefined, incoming: T, idOf: (record: T) => string): T {
  if (!current) return incoming;
  if (idOf(incoming) === idOf(current)) return incoming.updatedAt >= current.updatedAt ? incoming : current;
  return incoming.startedAt >= current.startedAt ? incoming : current;
}

/**
 * The latest run of a kind (a desktop task, a shell session) from the background's run log: fetched on open and after
 * every reconnect, then kept current from its update event, so a panel opened mid-run shows what a panel that watched
 * it all along shows.
 */
export function useLiveRun<T extends RunVersion>(
  client: BackgroundClient,
  options: { event: string; schema: z.ZodType<T>; fetch: () => Promise<T | null>; idOf: (record: T) => string },
): [T | undefined, (record: T) => void] {
  const [record, setRecord] = useState<T | undefined>(undefined);
  const apply = (incoming: T): void => setRecord((current) => nextRun(current, incoming, options.idOf));
  useEffect(() => followLive(client, { event: options.event, schema: options.schema, fetch: options.fetch, apply }), [client]);
  return [record, apply];
}

import type { z } from 'zod';
import type { BackgroundClient } from './background-client';

export interface FollowLive<T> {
  /** The background event that carries a newer value. */
  event: string;
  schema: z.ZodType<T>;
  /** The current value, asked for now and after every reconnect; nothing when there is none yet. */
  fetch: () => Promise<T | null | undefined>;
  apply: (value: T) => void;
}

/**
 * Keeps a view's value current: fetched at once and after every reconnect (a restarted worker's events were missed),
 * then taken from each event that carries it. Returns what stops following, for an effect's cleanup.
 */
export function followLive<T>(client: BackgroundClient, options: FollowLive<T>): () => void {
  const refresh = (): void => {
    options.fetch().then(
      (value) => {
        if (value !== null && value !== undefined) options.apply(value);
      },
      () => undefined,
    );
  };
  const offEvent = client.onEvent((event, data) => {
    if (event !== options.event) return;
    const parsed = options.schema.safeParse(data);
    if (parsed.success) options.apply(parsed.data);
  });
  const offConnect = client.onConnect(refresh);
  refresh();
  return () => {
    offEvent();
    offConnect();
  };
}

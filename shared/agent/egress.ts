import { z } from 'zod';

/**
 * A request the browser's egress guard held: a page load, a frame load, a form post or a ping from one of the task's
 * tabs to an origin the task is not approved for. It becomes an approval naming the destination and what would be
 * sent; the values themselves are never in it.
 */
export const BlockedEgress = z.object({
  /** Identifies the held request to the environment that retries or drops it. */
  id: z.string(),
  /** The address without its query and fragment (those may carry data). */
  address: z.string(),
  origin: z.string(),
  /** Whether the address carried a query or fragment, which may hold data. */
  withQuery: z.boolean(),
  method: z.string(),
  type: z.enum(['main_frame', 'sub_frame', 'ping']),
  /** The names of the form fields it would have sent. */
  fields: z.array(z.string()),
  tabId: z.number().int(),
  /** The page opened a new tab or window for it. */
  newTab: z.boolean(),
});
export type BlockedEgress = z.infer<typeof BlockedEgress>;

/** Where a task's tabs may go without asking; the browser enforces it. */
export interface EgressScope {
  /** Exact origins: the start origin and those approved during the task. */
  origins: string[];
  /** The user's allowed sites from Settings, as patterns. */
  patterns: string[];
}

/** A held request in words, for the approval and for the model. */
export function describeBlocked(blocked: BlockedEgress): string {
  const what = blocked.type === 'ping' ? 'a ping' : blocked.method === 'POST' ? 'a form post' : blocked.type === 'sub_frame' ? 'a frame load' : 'a page load';
  const fields = blocked.fields.length > 0 ? ` carrying the fields ${blocked.fields.slice(0, 12).join(', ')}` : blocked.withQuery ? ' with data in its address' : '';
  return `${what} (${blocked.method}) to ${blocked.address}${fields}${blocked.newTab ? ', in a new tab the page opened' : ''}`;
}

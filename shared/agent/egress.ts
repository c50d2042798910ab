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
  /** `request`: a request a page's script, frame or worker made (fetch, XHR, beacon, image, socket...). */
  type: z.enum(['main_frame', 'sub_frame', 'ping', 'request']),
  /** The names of the form fields it would have sent. */
  fields: z.array(z.string()),
  tabId: z.number().int(),
  /** The page opened a new tab or window for it. */
  newTab: z.boolean(),
  /**
   * The placeholders of the secrets it carried (a value the task typed into the page, found in its address, headers
   * or body in some encoding), or `(unreadable)` when its content could not be inspected while a secret was on the page.
   */
  secrets: z.array(z.string()).optional(),
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
  const what =
    blocked.type === 'request' ? "a request by the page's script" : blocked.type === 'ping' ? 'a ping' : blocked.method === 'POST' ? 'a form post' : blocked.type === 'sub_frame' ? 'a frame load' : 'a page load';
  const secrets = secretsText(blocked);
  const fields = secrets
    ? ` carrying ${secrets}`
    : blocked.fields.length > 0
      ? ` carrying the fields ${blocked.fields.slice(0, 12).join(', ')}`
      : blocked.withQuery
        ? ' with data in its address'
        : '';
  return `${what} (${blocked.method}) to ${blocked.address}${fields}${blocked.newTab ? ', in a new tab the page opened' : ''}`;
}

/** The secrets a held request carried, in words: `{{card_number}}`, or content that could not be read. */
export function secretsText(blocked: Pick<BlockedEgress, 'secrets'>): string {
  const names = blocked.secrets ?? [];
  if (names.length === 0) return '';
  const known = names.filter((n) => n !== UNREADABLE).map((n) => `{{${n}}}`);
  if (known.length > 0) return `${known.join(', ')} (typed into the page by this task)`;
  return 'content Deputy cannot read, sent while a value typed by this task is on the page';
}

/** The secrets entry of a request whose content cannot be inspected (a socket, a file body, a body too long). */
export const UNREADABLE = '(unreadable)';

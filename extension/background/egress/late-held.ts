import type { HeldRequest } from './egress-guard';

/** What telling of the guard's late holds needs: the guard's untold holds, and the task's step list. */
export interface LateHeldPorts {
  taskId: string;
  guard: { unreported(taskId: string, startTabId: number): HeldRequest[] };
  /** Adds a line to the task's steps, for the user (the task runner's note). */
  note?: (text: string) => Promise<void>;
}

/** One held request in words: what the page tried, to which address, and that nothing went. */
export function lateHeldLine(held: HeldRequest): string {
  const what =
    held.type !== 'main_frame'
      ? `a ${held.method} request`
      : held.newTab
        ? held.method === 'POST'
          ? 'a window posting a form'
          : 'a window'
        : held.method === 'POST'
          ? 'a form post'
          : 'a page load';
  const data = held.withQuery || held.fields.length > 0 ? ' with data' : '';
  return `The page tried to open ${what}${data} to ${held.address} (${held.origin}, not an approved site) in tab ${held.tabId}; Deputy's egress guard blocked it and nothing was sent.`;
}

/**
 * The requests the guard held in the task's tabs that no step told of yet (a window the page opened a while after the
 * action, between steps, or beside the one an approval asked about): each becomes a line of the task's steps for the
 * user and a paragraph the model reads with its next page, so nothing is blocked without either of them knowing.
 */
export async function tellLateHeld(ports: LateHeldPorts, currentTabId: number): Promise<string> {
  const held = ports.guard.unreported(ports.taskId, currentTabId);
  if (held.length === 0) return '';
  const lines = held.map(lateHeldLine);
  for (const line of lines) await ports.note?.(line).catch(() => undefined);
  return `\n\nBlocked by Deputy (not sent; do not try to reach these another way):\n${lines.map((l) => `- ${l}`).join('\n')}`;
}

/** What the model is told changed between two snapshots of a tab, besides the new numbers marked with `*`. */
export interface PageState {
  url: string;
  title: string;
  dialogs: string[];
  /** The tab-wide number of the focused element, if it is numbered. */
  focused: number | undefined;
}

function shortUrl(url: string): string {
  return url.length > 100 ? `${url.slice(0, 99)}…` : url;
}

/** One short line, or null when none of URL, title, dialogs and focus changed. */
export function describeChanges(before: PageState | undefined, after: PageState): string | null {
  if (!before) return null;
  const parts: string[] = [];
  if (before.url !== after.url) parts.push(`URL → ${shortUrl(after.url)}`);
  if (before.title !== after.title) parts.push(`title → ${JSON.stringify(after.title.slice(0, 80))}`);
  const opened = after.dialogs.filter((d) => !before.dialogs.includes(d));
  const closed = before.dialogs.filter((d) => !after.dialogs.includes(d));
  for (const dialog of opened) parts.push(`dialog ${JSON.stringify(dialog)} opened`);
  for (const dialog of closed) parts.push(`dialog ${JSON.stringify(dialog)} closed`);
  if (before.focused !== after.focused) parts.push(after.focused === undefined ? 'focus left the numbered elements' : `focus → [${after.focused}]`);
  return parts.length > 0 ? `Changed: ${parts.join('; ')}` : null;
}

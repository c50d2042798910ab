import type { ObservedDialog, ObservedDownload } from '../../../shared/agent/environment';

/** Stores whose pages no extension may read or script, whatever its permissions. */
const STORE_PAGES = [/^https:\/\/chromewebstore\.google\.com\//, /^https:\/\/chrome\.google\.com\/webstore/, /^https:\/\/microsoftedge\.microsoft\.com\/addons/];

/**
 * Why Deputy cannot read a page at this address, in words for the model, or null when it can try. Browser pages (the
 * New Tab page, settings, other extensions), blank tabs and the extension stores are closed to every extension.
 */
export function blockedReason(url: string): string | null {
  if (url === '' || url.startsWith('about:blank')) return 'the tab is blank';
  if (STORE_PAGES.some((store) => store.test(url))) return 'it is an extension store page, which no extension may read';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https' || scheme === 'file') return null;
  if (scheme === 'chrome' || scheme === 'edge' || scheme === 'brave' || scheme === 'about' || scheme === 'chrome-search' || scheme === 'chrome-untrusted') {
    return `it is a page of the browser itself (${url.replace(/[?#].*$/, '')}), which no extension may read`;
  }
  return `extensions may not read ${scheme ?? 'this kind of'} pages`;
}

/** The few lines the model reads instead of a snapshot when the page cannot be read, with what it can do next. */
export function noticeText(title: string, url: string, notice: string): string {
  return [`Page: ${title || '(untitled)'} — ${url}`, `(${notice})`].join('\n');
}

export const NOTICES = {
  blocked: (reason: string) => `Deputy cannot read or act on this page: ${reason}. Use navigate to open the web page the task needs.`,
  unreachable: (url: string, error: string) =>
    `This page could not be loaded: ${error} (${url}). The browser shows its error page. Reload it or wait if the site may be slow or briefly down, check the address, or open another one.`,
  loadingUnreadable: () => 'The page is still loading and cannot be read yet. Use wait to give it time, or navigate elsewhere.',
  stillLoading: () => 'The page is still loading: what follows is what it shows so far. Use wait to give it more time, or go on with what is here.',
  unreadable: (reason: string) => `Deputy cannot read this page (${reason}). Reload it, or navigate to another page.`,
  dialog: (dialog: ObservedDialog) => {
    const kind = dialog.type === 'beforeunload' ? 'a "leave this page?" dialog' : `a JavaScript ${dialog.type} dialog`;
    const asks = dialog.type === 'prompt' ? ` It asks for text${dialog.defaultPrompt ? ` (suggested: ${JSON.stringify(dialog.defaultPrompt)})` : ''}: accept it with text to answer.` : '';
    const choice = dialog.type === 'alert' ? 'accept it (OK)' : dialog.type === 'beforeunload' ? 'accept it to leave, or dismiss it to stay' : 'accept it (OK) or dismiss it (Cancel)';
    return `The page shows ${kind} and is frozen until it is answered. The dialog says: ${JSON.stringify(dialog.message)}.${asks} Answer it with the dialog tool: ${choice}.`;
  },
};

/** The task's downloads under the page, one line each, so the model knows what it has and what waits for a decision. */
export function downloadsText(downloads: readonly ObservedDownload[]): string {
  if (downloads.length === 0) return '';
  const lines = downloads.map((d) => {
    const what = [d.mime, d.size === undefined ? '' : `${d.size} bytes`].filter(Boolean).join(', ');
    const state = d.state === 'complete' ? `saved to ${d.path ?? 'the downloads folder'}` : d.state === 'held' ? 'held: a program; keep it with the download tool (the user is asked) or discard it' : d.state.replace('_', ' ');
    return `- [${d.id}] ${JSON.stringify(d.name)}${what ? ` (${what})` : ''}: ${state}${d.note && d.state !== 'held' ? ` (${d.note})` : ''}`;
  });
  return `\n\nDownloads of this task:\n${lines.join('\n')}`;
}

import type { ObservedDownload } from '../../../shared/agent/environment';
import { toErrorShape } from '../../../shared/errors';
import type { PageAction, PageOutcome } from '../../../shared/perception/page-action';
import type { OpenDialog } from '../input/dialogs';
import { type ActOptions, FOLLOW_LOAD_CAP_MS, type PageCore, label } from './page-agent-core';
import { withEffect } from './step-verdict';

/**
 * What an action may raise that the page itself does not show: a JavaScript dialog (the page freezes under it until it
 * is answered) and downloads. Reported through the debugger (see input/), answered with the dialog and download tools.
 */

/** A download as a line of evidence: what, where, how big, or why it was not kept. */
export function downloadLine(download: ObservedDownload): string {
  const size = download.size === undefined ? '' : `, ${formatBytes(download.size)}`;
  const type = download.mime ? ` (${download.mime}${size})` : size ? ` (${size.slice(2)})` : '';
  switch (download.state) {
    case 'complete':
      return `downloaded ${JSON.stringify(download.name)}${type} to ${download.path ?? 'the downloads folder'} [download ${download.id}]`;
    case 'in_progress':
      return `a download started: ${JSON.stringify(download.name)}${type} [download ${download.id}]`;
    case 'held':
      return `the download ${JSON.stringify(download.name)}${type} is held: ${download.note ?? 'it waits for approval'} [download ${download.id}]`;
    case 'discarded':
      return `the download ${JSON.stringify(download.name)} was discarded${download.note ? `: ${download.note}` : ''} [download ${download.id}]`;
    case 'interrupted':
      return `the download ${JSON.stringify(download.name)} failed${download.note ? `: ${download.note}` : ''} [download ${download.id}]`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Actions that may go on while a JavaScript dialog holds the page: they do not need the page to answer. */
const WHILE_DIALOG = new Set(['dialog', 'tab_new', 'tab_switch', 'tab_close', 'download']);

/**
 * Runs the action while watching for what the debugger reports: a JavaScript dialog that the action opened (the page
 * freezes under it, so the action's own result only comes once the dialog is answered) and downloads it started.
 */
export async function watchDialogs(core: PageCore, tabId: number, action: PageAction, options: ActOptions & { settleMs: number }): Promise<PageOutcome> {
  const input = core.deps.input;
  if (!input) return core.perform(tabId, action, options);
  await input.attach(options.owner, tabId);
  if (action.kind === 'dialog') return answerDialog(core, tabId, action.action, action.text, options);
  if (action.kind === 'download') return answerDownload(core, action.id, action.action, options.owner);
  const open = await input.dialogs.current(tabId);
  if (open && !WHILE_DIALOG.has(action.kind) && !(action.kind === 'wait' && action.text === undefined)) {
    return { ok: false, message: `A ${open.type} dialog is open over the page, which is frozen until it is answered: answer it with the dialog tool first`, changed: false, evidence: [`dialog: ${JSON.stringify(open.message)}`] };
  }
  const mark = input.downloads?.mark(tabId);
  const waiting = input.dialogs.whenOpened(tabId);
  const work = core.perform(tabId, action, options).catch((error: unknown): PageOutcome => ({ ok: false, message: toErrorShape(error).message, changed: false, evidence: [] }));
  const first = await Promise.race([work, waiting.opened]).finally(() => waiting.cancel());
  if ('type' in first) return dialogOpened(core, tabId, action, first, work);
  if (mark !== undefined && input.downloads) {
    const started = await input.downloads.since(tabId, mark);
    // A download is what the click did, even though the page itself did not change.
    if (started.length > 0) return withEffect(first, started.map(downloadLine));
  }
  return first;
}

/** The step's result when its action opened a dialog: the page is frozen, the model answers the dialog next. */
function dialogOpened(core: PageCore, tabId: number, action: PageAction, dialog: OpenDialog, work: Promise<PageOutcome>): PageOutcome {
  const ref = 'ref' in action ? action.ref : undefined;
  const entry = ref === undefined ? undefined : core.memory(tabId).refs.lookup(ref);
  const who = ref !== undefined && entry ? label(ref, entry) : 'the page';
  if (entry) core.deps.input?.dialogs.setCause(tabId, { ref, role: entry.role, name: entry.name });
  core.deps.input?.dialogs.holdInterrupted(tabId, work);
  const kind = dialog.type === 'beforeunload' ? 'a "leave this page?" dialog' : `a JavaScript ${dialog.type} dialog`;
  return {
    ok: true,
    message: `${action.kind === 'navigate' || action.kind === 'back' || action.kind === 'reload' ? `Going to ${action.kind === 'navigate' ? action.url : 'the other page'}` : `The ${action.kind} on ${who}`} opened ${kind}; the page is frozen until it is answered: use the dialog tool`,
    changed: true,
    evidence: [`${dialog.type} dialog: ${JSON.stringify(dialog.message)}${dialog.type === 'prompt' ? ` (suggested answer ${JSON.stringify(dialog.defaultPrompt)})` : ''}`],
  };
}

/** Accepts or dismisses the tab's dialog, then reports what the action that opened it did once the page went on. */
async function answerDialog(core: PageCore, tabId: number, action: 'accept' | 'dismiss', text: string | undefined, options: ActOptions & { settleMs: number }): Promise<PageOutcome> {
  const input = core.deps.input;
  const open = await input?.dialogs.current(tabId);
  if (!input || !open) return { ok: false, message: 'No JavaScript dialog is open on this page: there is nothing to answer', changed: false, evidence: [] };
  if (!input.sessions.isAttached(tabId)) {
    return { ok: false, message: 'The dialog cannot be answered: the debugger that answers dialogs is not attached to this tab (the user may have to answer it)', changed: false, evidence: [] };
  }
  const accept = action === 'accept';
  const answer = accept && open.type === 'prompt' ? (text ?? open.defaultPrompt) : undefined;
  const before = await core.deps.tabs.state(tabId);
  const next = input.dialogs.whenOpened(tabId);
  const watch = core.deps.watchRequests?.(tabId);
  try {
    await input.dialogs.answer(tabId, accept, answer);
    const what = open.type === 'beforeunload' ? '"leave this page?" dialog' : `${open.type} dialog`;
    const message = answer !== undefined ? `Answered the prompt ${JSON.stringify(open.message)} with ${JSON.stringify(answer)}` : `${accept ? 'Accepted' : 'Dismissed'} the ${what}`;
    const interrupted = input.dialogs.takeInterrupted(tabId) as Promise<PageOutcome> | undefined;
    const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, options.settleMs + 10_000));
    const result = await Promise.race([interrupted ?? Promise.resolve(undefined), next.opened, timeout]);
    if (result && 'type' in result) return { ...dialogOpened(core, tabId, { kind: 'dialog', action }, result, Promise.resolve({ ok: true, message: '', changed: true, evidence: [] })), message: `${message}; then the page opened another ${result.type} dialog: use the dialog tool` };
    const settled = await core.settle(tabId, { loadCapMs: FOLLOW_LOAD_CAP_MS, quietCapMs: options.settleMs }, watch);
    const evidence = [`the dialog closed${open.type !== 'prompt' || !accept ? '' : ` and the page got ${JSON.stringify(answer)}`}`];
    if (result) evidence.push(`then: ${result.message}`, ...result.evidence);
    const after = settled.tab;
    if (after && before && after.url !== before.url && !evidence.some((line) => line.includes(after.url))) evidence.push(`URL is now ${after.url}`);
    return { ok: true, message, changed: true, evidence };
  } finally {
    next.cancel();
    watch?.stop();
  }
}

async function answerDownload(core: PageCore, id: string, action: 'keep' | 'discard', owner: string | undefined): Promise<PageOutcome> {
  const downloads = core.deps.input?.downloads;
  if (!downloads || owner === undefined) return { ok: false, message: 'Downloads are not handled here: only a task keeps or discards its downloads', changed: false, evidence: [] };
  const download = action === 'keep' ? await downloads.keep(owner, id) : await downloads.discard(owner, id);
  return { ok: true, message: `${action === 'keep' ? 'Kept' : 'Discarded'} the download ${JSON.stringify(download.name)}`, changed: true, evidence: [downloadLine(download)] };
}

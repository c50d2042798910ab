import type { PageOutcome } from '../../../shared/perception/page-action';
import type { RequestWatch } from '../../platform/network-activity';
import { callFrame } from '../frames/content-frames';
import type { PageCore } from './page-agent-core';

/** Searching a tab's frames for text (its elements numbered like a snapshot's), and waiting for text or for time. */

/** How long a search may read the page before it answers with what it found so far. */
const FIND_BUDGET_MS = 4000;

export async function findOnPage(core: PageCore, tabId: number, text: string, budgetMs = FIND_BUDGET_MS): Promise<PageOutcome> {
  const memory = core.memory(tabId);
  const frameIds = await core.deps.frames.listFrames(tabId);
  const lines: string[] = [];
  let total = 0;
  let unfinished = 0;
  for (const frameId of frameIds) {
    const found = await callFrame(core.deps.frames, tabId, frameId, 'find', { text, limit: 30, budgetMs }, budgetMs + 3000).catch(() => undefined);
    // A frame that could not answer in time was not searched to its end either.
    if (!found || !found.complete) unfinished += 1;
    if (!found) continue;
    total += found.total;
    for (const item of found.items) {
      if (item.k === 'ctx') lines.push(`text: ${item.text}`);
      else if (item.k === 'el') {
        const n = memory.refs.numberFor({ frameId, token: found.token, url: found.url, local: item.ref, role: item.role, name: item.name });
        lines.push([`[${n}] ${item.role}${item.name ? ` ${JSON.stringify(item.name)}` : ''}`, ...item.ann].join(' '));
      }
    }
  }
  // Running out of time is said plainly: "nothing found" would tell the model the text is not there.
  const partly = unfinished > 0 ? ` in the part of the page searched before the search ran out of time (${budgetMs / 1000} s; the page is very large)` : '';
  if (total === 0) {
    const message =
      unfinished > 0
        ? `Found nothing matching ${JSON.stringify(text)}${partly}. The text may still be further on: scroll to it, or search for something more specific`
        : `Found nothing matching ${JSON.stringify(text)} on the page`;
    return { ok: true, message, changed: false, evidence: [] };
  }
  return {
    ok: true,
    message: `Found ${total} match${total === 1 ? '' : 'es'} for ${JSON.stringify(text)}${partly}${total > lines.length ? ` (first ${lines.length} shown)` : ''}`,
    changed: false,
    evidence: lines.slice(0, 30),
  };
}

export async function waitOnPage(core: PageCore, tabId: number, seconds: number | undefined, text: string | undefined, watch: RequestWatch | undefined): Promise<PageOutcome> {
  if (text === undefined) {
    const ms = Math.min(seconds ?? 1, 30) * 1000;
    const tab = await core.deps.tabs.state(tabId);
    if (tab?.status === 'loading') {
      // Waiting on a page that is still loading ends as soon as it has loaded and settled.
      const settled = await core.settle(tabId, { loadCapMs: ms, quietCapMs: 3000 }, watch);
      return settled.loaded
        ? { ok: true, message: `The page finished loading after ${(settled.waitedMs / 1000).toFixed(1)} s`, changed: true, evidence: [] }
        : { ok: true, message: `Waited ${seconds ?? 1} s; the page is still loading`, changed: true, evidence: [] };
    }
    await core.deps.sleep(ms);
    return { ok: true, message: `Waited ${seconds ?? 1} s`, changed: false, evidence: [] };
  }
  const deadline = Math.min(seconds ?? 10, 30) * 1000;
  for (let waited = 0; waited <= deadline; waited += 500) {
    const found = await findOnPage(core, tabId, text).catch(() => undefined);
    if (found && found.evidence.length > 0) return { ok: true, message: `${JSON.stringify(text)} is on the page`, changed: true, evidence: found.evidence.slice(0, 3) };
    await core.deps.sleep(500);
  }
  return { ok: false, message: `${JSON.stringify(text)} did not appear within ${deadline / 1000} s`, changed: false, evidence: [] };
}

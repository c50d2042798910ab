import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { ChatBaseline, ChatDetection, ChatState, ChatWaitResult, ContentMethods, ParamsOf, ResultOf, UiMethods } from '../../../shared/protocol';
import { decideDetection, type FrameReport, type GlobalsReport } from '../../content/chat/detection-verdict';
import { allGlobalPaths } from '../../content/chat/profile-match';
import { baselineAfterAction, baselineOf } from '../../content/chat/transcript-ledger';
import { VENDOR_PROFILES, profileById } from '../../content/chat/vendor-profiles';
import type { ChatSession, ChatSessions } from './chat-sessions';
import { callFrame, type FramePorts } from '../frames/content-frames';

export interface ChatDriverDeps {
  frames: FramePorts;
  sessions: ChatSessions;
  readGlobals: (tabId: number, paths: string[]) => Promise<GlobalsReport[]>;
  callPage: (tabId: number, frameId: number, path: string[], args: unknown[]) => Promise<{ called: boolean; error: string | null }>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  log: Logger;
}

/** One content-script wait runs at most this long, so the service worker sees activity and is not stopped mid-wait. */
const WAIT_SLICE_MS = 20_000;
const OPEN_TIMEOUT_MS = 5000;
const PROBE_RETRY_MS = 2000;

/**
 * Drives a tab's support chat from the background: finds the frame that holds it (every frame is probed, page
 * globals are read in the MAIN world), opens it by the vendor's API or its launcher, and forwards reads, sends,
 * choices, form fills and waits to that frame. The chat tools of the agent are thin wrappers over these methods.
 */
export class ChatDriver {
  constructor(private readonly deps: ChatDriverDeps) {}

  async detect(tabId: number): Promise<ChatDetection> {
    const frameIds = await this.deps.frames.listFrames(tabId).catch((error: unknown) => {
      throw new AppError('not_found', `Tab ${tabId} cannot be read (${String(error)}): it may be closed, or a browser page that extensions cannot script`);
    });
    const [reports, globals] = await Promise.all([
      this.probeFrames(tabId, frameIds),
      this.deps.readGlobals(tabId, allGlobalPaths(VENDOR_PROFILES)).catch((error: unknown) => {
        this.deps.log.warn('page globals could not be read', { tabId, error: String(error) });
        return [];
      }),
    ]);
    const detection = decideDetection(VENDOR_PROFILES, reports, globals);
    if (detection.found && detection.vendor !== null && detection.frameId !== null) {
      const previous = await this.deps.sessions.get(tabId);
      const sameChat = previous?.vendor === detection.vendor && previous.frameId === detection.frameId;
      await this.deps.sessions.set(tabId, { vendor: detection.vendor, frameId: detection.frameId, baseline: sameChat ? previous.baseline : null });
    } else {
      await this.deps.sessions.delete(tabId);
    }
    this.deps.log.info('chat detection', { tabId, vendor: detection.vendor, frameId: detection.frameId, confidence: detection.confidence });
    return detection;
  }

  /**
   * Probes every frame. A frame that loaded a moment ago may not have its content script yet (it is injected when
   * the frame's document is idle), so frames without a receiver are asked again for a short while.
   */
  private async probeFrames(tabId: number, frameIds: number[]): Promise<FrameReport[]> {
    const reports: FrameReport[] = [];
    let pending = frameIds;
    const deadline = this.deps.now() + PROBE_RETRY_MS;
    for (;;) {
      const asked = pending;
      const results = await Promise.allSettled(
        asked.map(async (frameId) => ({ frameId, probe: await callFrame(this.deps.frames, tabId, frameId, 'chat.probe', {}) })),
      );
      pending = [];
      results.forEach((result, index) => {
        if (result.status === 'fulfilled') reports.push(result.value);
        else if (result.reason instanceof AppError && result.reason.code === 'unavailable') pending.push(asked[index] ?? -1);
      });
      pending = pending.filter((frameId) => frameId >= 0);
      if (pending.length === 0 || this.deps.now() >= deadline) return reports.sort((a, b) => a.frameId - b.frameId);
      await this.deps.sleep(150);
    }
  }

  /** Opens the chat: already open, else the vendor's page API, else its launcher; then finds the frame again. */
  async open(tabId: number): Promise<ResultOf<UiMethods, 'chat.open'>> {
    let detection = await this.detect(tabId);
    if (detection.found && (await this.isOpen(tabId))) return { opened: true, how: 'already_open', detection, summary: `${detection.summary}; it is open` };
    // Nothing found may still be a widget that renders only once its launcher is clicked: try a generic launcher.
    const vendor = detection.vendor ?? 'generic';
    const api = profileById(vendor)?.open.api ?? null;
    const apiFrame = detection.evidence.find((item) => item.layer === 'global')?.frameId;
    if (detection.found && api && apiFrame !== undefined) {
      const call = await this.deps.callPage(tabId, apiFrame, api.path, api.args).catch((error: unknown) => ({ called: false, error: String(error) }));
      if (call.called) {
        detection = await this.untilOpen(tabId, detection);
        if (await this.isOpen(tabId)) return await this.opened(tabId, 'api', detection, `Opened with ${api.path.join('.')}()`);
      } else {
        this.deps.log.warn('open by page API failed; trying the launcher', { vendor, error: call.error });
      }
    }
    const frameIds = await this.deps.frames.listFrames(tabId);
    for (const frameId of [...frameIds].sort((a, b) => a - b)) {
      const launched = await callFrame(this.deps.frames, tabId, frameId, 'chat.launch', { vendor }).catch(() => ({ clicked: false, label: null }));
      if (!launched.clicked) continue;
      detection = await this.untilOpen(tabId, detection);
      if (await this.isOpen(tabId)) return await this.opened(tabId, 'launcher', detection, `Opened by clicking "${launched.label ?? 'the launcher'}"`);
    }
    const summary = detection.found
      ? `${detection.summary}, but it did not open: neither its page API nor a launcher opened it`
      : `${detection.summary} No launcher button for a chat was found either.`;
    return { opened: false, how: 'none', detection, summary };
  }

  /**
   * A chat we just opened has said nothing to us yet, so its greeting is new: the first wait returns it even if it
   * arrived while the widget was still opening.
   */
  private async opened(tabId: number, how: 'api' | 'launcher', detection: ChatDetection, summary: string): Promise<ResultOf<UiMethods, 'chat.open'>> {
    await this.setBaseline(tabId, { count: 0, lastText: '' });
    return { opened: true, how, detection, summary };
  }

  async read(tabId: number): Promise<ChatState> {
    return this.inChat(tabId, 'chat.read', (vendor) => ({ vendor }));
  }

  async send(tabId: number, text: string): Promise<ResultOf<ContentMethods, 'chat.send'>> {
    const before = await this.read(tabId);
    const result = await this.inChat(tabId, 'chat.send', (vendor) => ({ vendor, text }), 10_000);
    await this.setBaseline(tabId, baselineAfterAction(before.messages, result.state.messages));
    return result;
  }

  async choose(tabId: number, choice: string | number): Promise<ResultOf<ContentMethods, 'chat.choose'>> {
    const before = await this.read(tabId);
    const result = await this.inChat(tabId, 'chat.choose', (vendor) => ({ vendor, choice }));
    await this.setBaseline(tabId, baselineAfterAction(before.messages, result.state.messages));
    return result;
  }

  async fill(tabId: number, form: number, values: Record<string, string>, submit: boolean): Promise<ResultOf<ContentMethods, 'chat.fill'>> {
    const before = await this.read(tabId);
    const result = await this.inChat(tabId, 'chat.fill', (vendor) => ({ vendor, form, values, submit }));
    if (submit) await this.setBaseline(tabId, baselineAfterAction(before.messages, result.state.messages));
    return result;
  }

  /** Waits for the reply to our last action, in slices, until it settles or `timeoutMs` passes. */
  async wait(tabId: number, timeoutMs: number, quietMs: number): Promise<ChatWaitResult> {
    const session = await this.session(tabId);
    const baseline = session.baseline ?? baselineOf((await this.read(tabId)).messages);
    const startedAt = this.deps.now();
    let typingSeen = false;
    for (;;) {
      const remaining = timeoutMs - (this.deps.now() - startedAt);
      const slice = Math.max(1, Math.min(remaining, WAIT_SLICE_MS));
      const result = await this.inChat(tabId, 'chat.wait', (vendor) => ({ vendor, baseline, timeoutMs: slice, quietMs }), slice + 10_000);
      typingSeen ||= result.typingSeen;
      const waitedMs = this.deps.now() - startedAt;
      if (result.status === 'replied') {
        await this.setBaseline(tabId, baselineOf(result.state.messages));
        return { ...result, typingSeen, waitedMs };
      }
      if (waitedMs >= timeoutMs) {
        const seconds = Math.round(timeoutMs / 100) / 10;
        const summary = typingSeen
          ? `No complete reply within ${seconds} s: support showed typing but sent nothing settled`
          : `No reply within ${seconds} s: nobody answered our last message`;
        return { ...result, status: 'timeout', typingSeen, waitedMs, summary };
      }
    }
  }

  /** Stops driving the tab's chat: forgets its frame and baseline. The widget itself is left as it is. */
  async end(tabId: number): Promise<{ ended: boolean }> {
    return { ended: await this.deps.sessions.delete(tabId) };
  }

  private async setBaseline(tabId: number, baseline: ChatBaseline): Promise<void> {
    const session = await this.deps.sessions.get(tabId);
    if (session) await this.deps.sessions.set(tabId, { ...session, baseline });
  }

  private async session(tabId: number): Promise<ChatSession> {
    const known = await this.deps.sessions.get(tabId);
    if (known) return known;
    const detection = await this.detect(tabId);
    const found = await this.deps.sessions.get(tabId);
    if (!found) throw new AppError('not_found', detection.summary);
    return found;
  }

  /** Calls a chat method in the chat's frame; if that frame is gone (the widget re-rendered it), detects once more. */
  private async inChat<K extends 'chat.read' | 'chat.send' | 'chat.wait' | 'chat.choose' | 'chat.fill'>(
    tabId: number,
    method: K,
    params: (vendor: string) => ParamsOf<ContentMethods, K>,
    timeoutMs = 5000,
  ): Promise<ResultOf<ContentMethods, K>> {
    const session = await this.session(tabId);
    try {
      return await callFrame(this.deps.frames, tabId, session.frameId, method, params(session.vendor), timeoutMs);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'unavailable') throw error;
      await this.deps.sessions.delete(tabId);
      const again = await this.session(tabId);
      return callFrame(this.deps.frames, tabId, again.frameId, method, params(again.vendor), timeoutMs);
    }
  }

  private async isOpen(tabId: number): Promise<boolean> {
    const session = await this.deps.sessions.get(tabId);
    if (!session) return false;
    const state = await callFrame(this.deps.frames, tabId, session.frameId, 'chat.read', { vendor: session.vendor }).catch(() => null);
    return state?.open === true;
  }

  /** After an open call the widget may create its frame a moment later: detect until the chat shows or time runs out. */
  private async untilOpen(tabId: number, fallback: ChatDetection): Promise<ChatDetection> {
    const deadline = this.deps.now() + OPEN_TIMEOUT_MS;
    let detection = fallback;
    while (this.deps.now() < deadline) {
      await this.deps.sleep(100);
      detection = await this.detect(tabId);
      if (await this.isOpen(tabId)) return detection;
    }
    return detection;
  }
}

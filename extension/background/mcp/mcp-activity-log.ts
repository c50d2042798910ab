import { z } from 'zod';
import { McpSessionView, type McpActivity, type McpSessionRef } from '../../../shared/protocol';
import type { Store } from '../../platform/storage';

const KEY = 'mcp-sessions';
const MAX_SESSIONS = 12;
const MAX_ACTIVITY = 50;

/**
 * What connected agents did, for the side panel's live log: each connection with its steps (redacted, newest last).
 * Kept in session storage so a panel opened later, or a restarted service worker, shows it; gone with the browser.
 */
export class McpActivityLog {
  private sessions: McpSessionView[] | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { store: Store; now: () => number; changed: () => void }) {}

  async list(): Promise<McpSessionView[]> {
    this.sessions ??= (await this.deps.store.get(KEY, z.array(McpSessionView))) ?? [];
    return this.sessions;
  }

  connected(session: McpSessionRef): Promise<void> {
    return this.change(session, (view) => view, 'connected');
  }

  ended(session: McpSessionRef, state: 'disconnected' | 'stopped', reason: string | undefined): Promise<void> {
    return this.change(session, (view) =>
      view.state === 'connected' ? { ...view, state, endedAt: this.deps.now(), ...(reason ? { reason } : {}) } : view,
    );
  }

  tab(session: McpSessionRef, tabId: number): Promise<void> {
    return this.change(session, (view) => (view.tabId === tabId ? view : { ...view, tabId }));
  }

  /** Adds a step, or updates the one with the same call id (running, then done). */
  record(entry: McpActivity): Promise<void> {
    return this.change(entry.session, (view) => {
      const index = view.activity.findIndex((a) => a.callId === entry.callId);
      const merged = index === -1 ? entry : { ...view.activity[index], ...entry, text: entry.text === entry.tool ? (view.activity[index]?.text ?? entry.text) : entry.text };
      const activity = index === -1 ? [...view.activity, merged] : view.activity.map((a, i) => (i === index ? merged : a));
      return { ...view, activity: activity.slice(-MAX_ACTIVITY) };
    });
  }

  private change(session: McpSessionRef, update: (view: McpSessionView) => McpSessionView, create?: 'connected'): Promise<void> {
    const run = async (): Promise<void> => {
      const sessions = await this.list();
      const index = sessions.findIndex((s) => s.session.id === session.id);
      const base: McpSessionView | undefined = index === -1 ? { session, state: create ?? 'connected', connectedAt: this.deps.now(), activity: [] } : sessions[index];
      if (!base) return;
      const next = update(base);
      this.sessions = (index === -1 ? [...sessions, next] : sessions.map((s, i) => (i === index ? next : s))).slice(-MAX_SESSIONS);
      await this.deps.store.set(KEY, this.sessions);
      this.deps.changed();
    };
    this.writing = this.writing.then(run, run);
    return this.writing;
  }
}

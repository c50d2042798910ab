import { AppError } from '../../../shared/errors';
import { InputChannel, serveRequest } from '../../../shared/protocol';
import type { DebuggerSessions } from './debugger-session';
import { type Point, pointerAfter, sendInput } from './trusted-input';

export interface InputRelayDeps {
  sessions: DebuggerSessions;
  /** Where a cross-site child frame's viewport sits in the tab's, found through its ancestors; null when hidden. */
  placeFrame: (tabId: number, frameId: number, frameKey: string | undefined) => Promise<Point | null>;
  sleep: (ms: number) => Promise<void>;
  newId: () => string;
  /** Whether the browser runs on macOS (editing shortcuts differ). */
  mac: boolean;
}

interface Lease {
  tabId: number;
  frameId: number;
  /** How the action's text was typed, as the relay decided it: kept for a verdict whose frame went away. */
  typing?: string;
  /** Where the action's own input left the pointer, in the tab's coordinates (a click there need not move it). */
  pointer?: Point;
}

/**
 * Sends trusted input for content scripts during an action. The page agent gives each action a lease for the one tab
 * and frame it acts in; a content script's request without a live lease, or from another tab or frame, is refused. So
 * a page cannot make Deputy type or click at another time or elsewhere, whatever it does to its content script.
 */
export class InputRelay {
  private readonly leases = new Map<string, Lease>();
  private readonly drags = new Map<number, unknown>();

  constructor(private readonly deps: InputRelayDeps) {
    deps.sessions.on('Input.dragIntercepted', (tabId, params) => this.drags.set(tabId, params.data));
  }

  /** A lease for one action in one frame, or undefined when the tab has no attached debugger to send input through. */
  lease(tabId: number, frameId: number): string | undefined {
    if (!this.deps.sessions.isAttached(tabId)) return undefined;
    const id = this.deps.newId();
    this.leases.set(id, { tabId, frameId });
    return id;
  }

  /** Ends a lease; returns how its text was typed, if it typed any (the frame's own report may be lost to a navigation). */
  revoke(id: string | undefined): { typing?: string } {
    if (id === undefined) return {};
    const held = this.leases.get(id);
    this.leases.delete(id);
    return held?.typing ? { typing: held.typing } : {};
  }

  /** Answers one request from a content script in `tabId`/`frameId`; never throws. */
  handle(message: unknown, sender: { tabId: number; frameId: number }): Promise<unknown> {
    return serveRequest(InputChannel, {
      input: async ({ lease, frameKey, input }) => {
        const held = this.leases.get(lease);
        if (!held || held.tabId !== sender.tabId || held.frameId !== sender.frameId) {
          throw new AppError('forbidden', 'no action of Deputy is under way in this frame');
        }
        if (!this.deps.sessions.isAttached(sender.tabId)) {
          return { trusted: false, reason: 'the debugger was detached from the tab during the action' };
        }
        const offset = sender.frameId === 0 ? { x: 0, y: 0 } : await this.deps.placeFrame(sender.tabId, sender.frameId, frameKey);
        if (!offset) return { trusted: false, reason: 'the frame could not be placed in the tab (it is hidden or moved)' };
        this.drags.delete(sender.tabId);
        const pointer = held.pointer;
        // Forgotten while input is on its way: if it fails halfway, where the pointer is is not known.
        delete held.pointer;
        const typing = await sendInput(
          {
            send: (method, params) => this.deps.sessions.send(sender.tabId, method, params),
            sleep: this.deps.sleep,
            interceptedDrag: () => this.drags.get(sender.tabId),
            mac: this.deps.mac,
          },
          input,
          offset,
          pointer,
        );
        const moved = pointerAfter(input);
        held.pointer = moved ? { x: moved.x + offset.x, y: moved.y + offset.y } : pointer;
        if (!typing) return { trusted: true };
        held.typing = typing;
        return { trusted: true, typing };
      },
    }, message);
  }
}

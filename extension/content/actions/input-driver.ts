import { Response } from '../../../shared/protocol/channel';
import type { InputOpInput } from '../../../shared/protocol/input-channel';
import { dispatchClick, dispatchHover } from './pointer-events';
import { pressKey } from './press-key';
import { syntheticDrag } from './synthetic-drag';
import type { InputDriver, Point } from './input-types';

export type { InputDriver, Point } from './input-types';

/** A point in an element's own viewport, in the viewport of `root` (the window this script runs in). */
export function pointIn(root: Window, el: Element, at: Point): Point {
  let x = at.x;
  let y = at.y;
  let win = el.ownerDocument.defaultView;
  for (let depth = 0; win && win !== root && depth < 16; depth += 1) {
    const frame = win.frameElement;
    if (!frame) break;
    const rect = frame.getBoundingClientRect();
    x += rect.left + frame.clientLeft;
    y += rect.top + frame.clientTop;
    win = frame.ownerDocument.defaultView;
  }
  return { x, y };
}

const synthetic = (reason: string): InputDriver => ({
  path: () => `synthetic events: ${reason}`,
  trusted: () => false,
  click: (target, at, count) => Promise.resolve(dispatchClick(target, at.x, at.y, count)),
  hover: (target, at) => Promise.resolve(dispatchHover(target, at.x, at.y)),
  press: (target, chord, times) => {
    for (let n = 0; n < times; n += 1) pressKey(target, chord);
    return Promise.resolve();
  },
  typeText: () => Promise.resolve(false),
  wheel: () => Promise.resolve(false),
  drag: (from, to, via) => Promise.resolve(syntheticDrag(from, to, via)),
});

export interface RelayOptions {
  win: Window;
  lease: string;
  frameKey: string | undefined;
  /** Sends a message to the background and returns its reply. */
  ask: (message: unknown) => Promise<unknown>;
  randomId: () => string;
}

/** Chrome's words for a message that found no listener, so the input certainly did not go out. */
const NOT_SENT = /receiving end does not exist|could not establish connection/i;

/** Input that went to the background, which stopped before saying whether it reached the page. */
export function uncertainInput(cause: string): Error {
  return new Error(`The input may have reached the page: the background stopped before confirming it (${cause}), so it was not sent again. Look at the page before repeating the action.`);
}

/** Error codes with which the background refuses input before sending any of it. */
const SENT_NOTHING_CODES: ReadonlySet<string> = new Set(['forbidden', 'invalid_params', 'bad_request', 'unknown_method']);

/**
 * Input through the background's debugger. When the background cannot send it after all (the user cancelled the
 * debugging bar mid-task, or it could not be reached at all), this and every later step of the action go the synthetic
 * way, and the path says why. Input whose fate is unknown is never sent again.
 */
function relayed(options: RelayOptions): InputDriver {
  let fallback: InputDriver | null = null;
  let typing: string | undefined;
  const send = async (input: InputOpInput): Promise<boolean> => {
    if (fallback) return false;
    let reason: string;
    try {
      const reply = Response.safeParse(
        await options.ask({ kind: 'request', id: `input-${options.randomId()}`, method: 'input', params: { lease: options.lease, frameKey: options.frameKey, input } }),
      );
      if (reply.success && reply.data.ok) {
        const result = reply.data.result as { trusted?: boolean; reason?: string; typing?: string } | undefined;
        if (result?.typing) typing = result.typing;
        if (result?.trusted) return true;
        reason = result?.reason ?? 'the background did not send the input';
      } else if (reply.success && !reply.data.ok) {
        // Refused before anything was sent (no lease for this frame, a malformed request): the synthetic way is safe.
        // Failing while sending (the debugger gave up halfway through a click) may have delivered part of it.
        if (!SENT_NOTHING_CODES.has(reply.data.error.code)) throw uncertainInput(reply.data.error.message);
        reason = reply.data.error.message;
      } else {
        reason = 'the background gave no valid answer';
      }
    } catch (error) {
      const text = String(error);
      // Only a background that could not be reached at all certainly sent nothing. Any other failure (the worker
      // stopped while the input was on its way, its page frozen under a dialog the click opened) may have delivered
      // it: sending it again as synthetic events would click or type twice, so the action stops here instead.
      if (!NOT_SENT.test(text)) throw uncertainInput(text);
      reason = `the background could not be reached (${text})`;
    }
    fallback = synthetic(reason);
    return false;
  };
  const at = (el: Element, point: Point): Point => pointIn(options.win, el, point);
  const driver: InputDriver = {
    path: () => fallback?.path() ?? 'trusted input',
    trusted: () => fallback === null,
    click: async (target, point, count) => {
      if (!(await send({ op: 'click', at: at(target, point), count }))) await fallback?.click(target, point, count);
    },
    hover: async (target, point) => {
      if (!(await send({ op: 'move', at: at(target, point) }))) await fallback?.hover(target, point);
    },
    press: async (target, chord, times) => {
      if (!(await send({ op: 'press', chord, times }))) await fallback?.press(target, chord, times);
    },
    typeText: (text) => send({ op: 'type', text }),
    typing: () => typing,
    wheel: (target, point, dx, dy) => send({ op: 'wheel', at: at(target, point), dx, dy }),
    drag: async (from, to, via) => {
      const path = via?.length ? { via: via.map((p) => at(from.el, p)) } : {};
      if (!(await send({ op: 'drag', from: at(from.el, from.at), to: at(to.el, to.at), ...path }))) await fallback?.drag(from, to, via);
    },
  };
  return driver;
}

/** The driver for one action: trusted when the background gave it a lease, otherwise synthetic with the reason. */
export function createInputDriver(input: { lease?: string | undefined; reason?: string | undefined } | null | undefined, options: Omit<RelayOptions, 'lease'>): InputDriver {
  if (input?.lease) return relayed({ ...options, lease: input.lease });
  return synthetic(input?.reason ?? 'no trusted input was offered for this action');
}

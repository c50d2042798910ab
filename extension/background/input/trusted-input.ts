import { typingMode } from './typing-mode';
import type { Chord, InputOp } from '../../../shared/protocol/input-channel';
import { type KeyDefinition, MODIFIER_BITS, type Modifier, keyDefinition, keyForCharacter } from './keyboard-layout';

/** Sends one DevTools command to the tab. */
export type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

export interface Point {
  x: number;
  y: number;
}

export interface TrustedInputDeps {
  send: Send;
  sleep: (ms: number) => Promise<void>;
  /** The data of a native drag the browser started and handed to us (Input.dragIntercepted), if one did. */
  interceptedDrag: () => unknown;
  /** Whether this browser runs on macOS, where editing shortcuts go as commands (Blink handles them itself elsewhere). */
  mac: boolean;
}

/** Texts longer than this go in mostly as one committed text, and only their last character as a key press. */
const KEYED_TEXT_MAX = 300;
/** How many pointer moves a drag makes on its way: enough for sortable lists to notice the pointer passing items. */
const DRAG_STEPS = 12;
/** Resolves at the page's next frame: evaluated in the page only to wait, it reads and changes nothing. */
const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => resolve(0)))';
/** Along a drawn path, the longest single move (CSS pixels): a page that draws the pointer's track sees its shape. */
const PATH_STEP = 10;

/** The points a drag's pointer moves through after it is pressed: evenly between the ends, or along the path given. */
function dragMoves(from: Point, to: Point, via: Point[]): Point[] {
  if (via.length === 0) {
    return Array.from({ length: DRAG_STEPS }, (_, i) => ({ x: from.x + ((to.x - from.x) * (i + 1)) / DRAG_STEPS, y: from.y + ((to.y - from.y) * (i + 1)) / DRAG_STEPS }));
  }
  const moves: Point[] = [];
  let last = from;
  for (const next of [...via, to]) {
    const steps = Math.max(1, Math.ceil(Math.hypot(next.x - last.x, next.y - last.y) / PATH_STEP));
    for (let i = 1; i <= steps; i += 1) moves.push({ x: last.x + ((next.x - last.x) * i) / steps, y: last.y + ((next.y - last.y) * i) / steps });
    last = next;
  }
  return moves;
}

const MAC_COMMANDS: Record<string, string> = { a: 'selectAll', c: 'copy', v: 'paste', x: 'cut', z: 'undo' };

async function mouse(send: Send, type: string, at: Point, extra: Record<string, unknown> = {}): Promise<void> {
  await send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, ...extra });
}

/**
 * A left click (or a double click) as a mouse makes it: onto the point, down, up; the second press says clickCount 2.
 * A pointer already on the point (the action moved it there and waited for its hover to settle) is not moved again.
 * The events go out together, not each after the last was handled: one attachment's input reaches the page in the
 * order it was sent (Puppeteer's mouse.click sends its move, press and release the same way), and a round trip to the
 * page for each of them only made the click slower.
 */
export async function click(send: Send, at: Point, count: number, pointer?: Point): Promise<void> {
  const events: Promise<void>[] = [];
  if (pointer?.x !== at.x || pointer.y !== at.y) events.push(mouse(send, 'mouseMoved', at));
  for (let n = 1; n <= count; n += 1) {
    events.push(mouse(send, 'mousePressed', at, { button: 'left', buttons: 1, clickCount: n }));
    events.push(mouse(send, 'mouseReleased', at, { button: 'left', buttons: 0, clickCount: n }));
  }
  await Promise.all(events);
}

async function key(send: Send, type: 'keyDown' | 'rawKeyDown' | 'keyUp', def: KeyDefinition, modifiers: number, commands?: string[]): Promise<void> {
  await send('Input.dispatchKeyEvent', {
    type,
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    modifiers,
    ...(def.location === undefined ? {} : { location: def.location }),
    ...(type === 'keyDown' && def.text !== undefined ? { text: def.text, unmodifiedText: def.text } : {}),
    ...(commands ? { commands } : {}),
  });
}

/** Presses a key with its modifiers held, as a keyboard does: modifiers down, the key down and up, modifiers up. */
export async function pressChord(deps: Pick<TrustedInputDeps, 'send' | 'mac'>, chord: Chord, times = 1): Promise<void> {
  const { send } = deps;
  const def = keyDefinition(chord.key);
  if (!def) throw new Error(`no key is named "${chord.key}": use a key such as Enter, Tab, Escape, ArrowDown, PageDown or a single character`);
  const held: Modifier[] = [];
  if (chord.ctrl) held.push('Control');
  if (chord.alt) held.push('Alt');
  if (chord.meta) held.push('Meta');
  if (chord.shift) held.push('Shift');
  let modifiers = 0;
  for (const name of held) {
    modifiers |= MODIFIER_BITS[name];
    const modifierKey = keyDefinition(name);
    if (modifierKey) await key(send, 'rawKeyDown', modifierKey, modifiers);
  }
  // With Control, Alt or Meta held a key types nothing: it is a shortcut.
  const types = def.text !== undefined && !chord.ctrl && !chord.alt && !chord.meta;
  const commandKey = chord.key.toLowerCase();
  const commands = deps.mac && chord.meta && MAC_COMMANDS[commandKey] ? [MAC_COMMANDS[commandKey]] : undefined;
  for (let n = 0; n < times; n += 1) {
    const shown = types && chord.shift && def.text ? { ...def, text: def.text.toUpperCase(), key: def.key.length === 1 ? def.key.toUpperCase() : def.key } : def;
    await key(send, types ? 'keyDown' : 'rawKeyDown', shown, modifiers, commands);
    await key(send, 'keyUp', shown, modifiers);
  }
  for (const name of held.reverse()) {
    modifiers &= ~MODIFIER_BITS[name];
    const modifierKey = keyDefinition(name);
    if (modifierKey) await key(send, 'keyUp', modifierKey, modifiers);
  }
}

/**
 * Types text at the caret: each character a keyboard has is a key press (keydown, keypress, input, keyup, as sites
 * listening for keys expect); characters no key types go in as committed text, as an input method commits them. A
 * very long text goes in as one commit except its last character, so the page still sees a key at the end.
 */
export async function typeText(send: Send, text: string): Promise<void> {
  const chars = [...text];
  let start = 0;
  if (chars.length > KEYED_TEXT_MAX) {
    start = chars.length - 1;
    await send('Input.insertText', { text: chars.slice(0, start).join('') });
  }
  let pending = '';
  const flush = async (): Promise<void> => {
    if (pending) await send('Input.insertText', { text: pending });
    pending = '';
  };
  for (const char of chars.slice(start)) {
    const typed = keyForCharacter(char);
    if (!typed) {
      pending += char;
      continue;
    }
    await flush();
    const modifiers = typed.shift ? MODIFIER_BITS.Shift : 0;
    await key(send, 'keyDown', typed.key, modifiers);
    await key(send, 'keyUp', typed.key, modifiers);
  }
  await flush();
}

/** Turns the mouse wheel over a point: what scrolls is whatever the page scrolls under the pointer there. */
export async function wheel(send: Send, at: Point, dx: number, dy: number): Promise<void> {
  await mouse(send, 'mouseMoved', at);
  await mouse(send, 'mouseWheel', at, { deltaX: dx, deltaY: dy });
}

/**
 * Drags from one point to another with the left button held, in small moves. A page whose elements start a native
 * drag (draggable="true") gets it as a real drag and drop, handed over by the browser; any other page sees the mouse
 * moves and the release (jQuery UI, range thumbs, canvas editors). With `via`, the pointer goes through those points
 * in order, as a hand draws a path (a circle round a mark, a signature).
 */
export async function drag(deps: TrustedInputDeps, from: Point, to: Point, via: Point[] = []): Promise<'native' | 'mouse'> {
  const { send } = deps;
  await send('Input.setInterceptDrags', { enabled: true });
  try {
    await mouse(send, 'mouseMoved', from);
    await mouse(send, 'mousePressed', from, { button: 'left', buttons: 1, clickCount: 1 });
    let data: unknown;
    let step = 0;
    for (const at of dragMoves(from, to, via)) {
      step += 1;
      await mouse(send, 'mouseMoved', at, { button: 'left', buttons: 1 });
      // The browser reports a native drag a moment after the move that started it; later moves get a frame each, so
      // the browser does not merge them and a script that follows the pointer (a sortable list) sees every one.
      if (via.length > 0) {
        // A drawn path is all in its moves: the browser merges moves that come within one frame into the last, which
        // would make a circle a dot, so each waits for the page's next frame (moves are delivered before it), or for
        // a while where the page draws no frames (a page that withholds them only slows the drag).
        await Promise.race([send('Runtime.evaluate', { expression: NEXT_FRAME, awaitPromise: true }).catch(() => undefined), deps.sleep(100)]);
      } else await deps.sleep(step <= 2 ? 30 : 16);
      data = deps.interceptedDrag();
      if (data) break;
    }
    if (data) {
      await send('Input.dispatchDragEvent', { type: 'dragEnter', x: to.x, y: to.y, data });
      await send('Input.dispatchDragEvent', { type: 'dragOver', x: to.x, y: to.y, data });
      await send('Input.dispatchDragEvent', { type: 'drop', x: to.x, y: to.y, data });
    }
    await mouse(send, 'mouseReleased', to, { button: 'left', buttons: 0, clickCount: 1 });
    return data ? 'native' : 'mouse';
  } finally {
    await send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

/** Where the pointer is after a piece of input (in the frame's coordinates), or undefined when it does not move it. */
export function pointerAfter(input: InputOp): Point | undefined {
  if (input.op === 'drag') return input.to;
  return input.op === 'click' || input.op === 'move' || input.op === 'wheel' ? input.at : undefined;
}

/**
 * Sends one relayed piece of input, in the tab's own viewport coordinates; for typed text, how it was typed. `pointer`
 * is where the action's own input left the pointer, in the tab's coordinates, when it did.
 */
export async function sendInput(deps: TrustedInputDeps, input: InputOp, offset: Point, pointer?: Point): Promise<string | void> {
  const shift = (p: Point): Point => ({ x: p.x + offset.x, y: p.y + offset.y });
  switch (input.op) {
    case 'click':
      return click(deps.send, shift(input.at), input.count, pointer);
    case 'move':
      return mouse(deps.send, 'mouseMoved', shift(input.at));
    case 'wheel':
      return wheel(deps.send, shift(input.at), input.dx, input.dy);
    case 'press':
      return pressChord(deps, input.chord, input.times);
    case 'type': {
      // One character is one key either way; longer text goes in at once unless the page handles keys itself.
      if ([...input.text].length <= 1) {
        await typeText(deps.send, input.text);
        return undefined;
      }
      const mode = await typingMode(deps.send);
      if (mode.keys) await typeText(deps.send, input.text);
      else await deps.send('Input.insertText', { text: input.text });
      return mode.note;
    }
    case 'drag':
      await drag(deps, shift(input.from), shift(input.to), (input.via ?? []).map(shift));
      return;
  }
}

import type { Chord } from '../../../shared/protocol/input-channel';

export interface Point {
  x: number;
  y: number;
}

/**
 * How an action's input reaches the page. Trusted: through the background's debugger, as real mouse and keyboard
 * input (`isTrusted`, user activation, :hover, native drag and drop, copy and paste). Synthetic: DOM events dispatched
 * by this script, the fallback where the debugger cannot be used; the reason goes into the step's result.
 */
export interface InputDriver {
  /** "trusted input", or "synthetic events: <why>". */
  path(): string;
  trusted(): boolean;
  click(target: Element, at: Point, count: number): Promise<void>;
  hover(target: Element, at: Point): Promise<void>;
  press(target: Element, chord: Chord, times: number): Promise<void>;
  /** Types at the caret; false when it cannot be done as trusted input (the caller types the synthetic way). */
  typeText(text: string): Promise<boolean>;
  /** How the last trusted text went in (one insertion, or key by key and why); undefined when not said. */
  typing?(): string | undefined;
  /** Turns the wheel over a point of an element; false when not trusted (the caller scrolls the synthetic way). */
  wheel(target: Element, at: Point, dx: number, dy: number): Promise<boolean>;
  /** With `via`, through those points in order (a drawn path), in the viewport of `from`'s element. */
  drag(from: { el: Element; at: Point }, to: { el: Element; at: Point }, via?: Point[]): Promise<void>;
}


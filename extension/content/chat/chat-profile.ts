import type { ChatAuthor } from '../../../shared/protocol';

/**
 * A call into the page's own JavaScript that opens a widget, written as data so no code is ever built from strings:
 * `path` walks from `globalThis` to a function, which is called with `args` and its parent object as `this`.
 * `['$crisp', 'push']` with `[['do', 'chat:open']]` means `$crisp.push(['do', 'chat:open'])`.
 */
export interface PageCall {
  path: string[];
  args: unknown[];
}

/** How one author's messages are told apart: a message element matching `selector` (or inside a match). */
export interface AuthorRule {
  selector: string;
  author: ChatAuthor;
}

/**
 * One vendor's widget, as data. Markers are what detection looks for; the rest is how the driver finds the composer,
 * the messages and the controls once the chat is open. Vendors change markup often, so every selector keys on ids,
 * names, titles and roles rather than hashed class names, and the driver falls back to the structural reader for any
 * part a profile does not name or no longer finds.
 */
export interface ChatProfile {
  id: string;
  name: string;
  /** Dotted paths of page globals, read in the page's MAIN world (`$zoho.salesiq` means `window.$zoho.salesiq`). */
  globals: string[];
  /** Host names (or suffixes starting with a dot) of the vendor's scripts. */
  scriptHosts: string[];
  /** Containers and launchers in the host page. */
  markers: string[];
  /** Iframes that hold the widget's UI; the driver works inside the frame they load. */
  frames: string[];
  /** Elements only present in the frame or root that holds the chat UI itself. */
  uiMarkers: string[];
  open: { api: PageCall | null; launcher: string[] };
  composer: string[];
  input: { kind: 'textarea' | 'contenteditable'; submit: 'enter' | 'button' };
  send: string[];
  messageList: string[];
  message: string[];
  authors: AuthorRule[];
  typing: string[];
  choices: string[];
  time: string[];
}

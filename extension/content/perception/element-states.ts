import { clip, collapse } from './accessible-name';

const MAX_VALUE = 40;
const MAX_HREF = 40;

function quote(text: string): string {
  return JSON.stringify(text);
}

/** An http(s) URL as the browser serializes a link's `href`, with no user name or password in it. */
const WEB_URL = /^(https?:)\/\/([^/?#@]*)((?:\/[^?#]*)?)(?:\?[^#]*)?(#.*)?$/;

type UrlParts = Pick<URL, 'protocol' | 'origin' | 'host' | 'pathname' | 'hash'>;

/**
 * The parts of a link's URL. A page may have thousands of links, and a `URL` object for each is a good part of a
 * snapshot's time, so the common form (already normalized by the browser) is split by a regular expression.
 */
function urlParts(href: string): UrlParts | null {
  const match = WEB_URL.exec(href);
  if (match) {
    const protocol = match[1] ?? '';
    const host = match[2] ?? '';
    const hash = match[4] ?? '';
    return { protocol, host, origin: `${protocol}//${host}`, pathname: match[3] || '/', hash: hash.length > 1 ? hash : '' };
  }
  try {
    return new URL(href);
  } catch {
    return null;
  }
}

/** A link target the model can tell apart from its neighbours in few tokens: same-origin paths lose the origin. */
export function shortHref(href: string, pageOrigin: string, pagePath = ''): string {
  if (!href || href.startsWith('javascript:')) return '';
  const url = urlParts(href);
  if (!url) return '';
  if (url.protocol === 'mailto:' || url.protocol === 'tel:') return clip(href, MAX_HREF);
  if (url.origin === pageOrigin && url.pathname === pagePath && url.hash) return clip(url.hash, MAX_HREF);
  const path = url.pathname === '/' ? (url.hash ? url.hash : '/') : url.pathname + (url.hash.length < 16 ? url.hash : '');
  const shown = url.origin === pageOrigin ? path : `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  return clip(shown, MAX_HREF);
}

/**
 * A text area's value as a reader sees it: from its start, or, once it is scrolled away from the top, the part in
 * view (starting with "…"), so scrolling a long text area shows more of its text, as it does on the screen.
 */
function textAreaValue(area: HTMLTextAreaElement): string | null {
  const value = area.value;
  if (!value) return null;
  const { scrollTop, scrollHeight, clientHeight } = area;
  if (scrollTop <= 0 || scrollHeight <= clientHeight) return value;
  const flat = collapse(value);
  if (scrollTop + clientHeight >= scrollHeight - 2) return `…${flat.slice(-(MAX_VALUE - 1))}`;
  const start = Math.floor((flat.length * scrollTop) / scrollHeight);
  return `…${flat.slice(start)}`;
}

function valueOf(el: Element, tag: string, role: string): string | null {
  if (tag === 'INPUT') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (type === 'checkbox' || type === 'radio' || type === 'button' || type === 'submit' || type === 'reset' || type === 'image') {
      return null;
    }
    if (type === 'file') return input.files?.length ? Array.from(input.files, (f) => f.name).join(', ') : null;
    if (!input.value) return null;
    return type === 'password' ? '•'.repeat(Math.min(input.value.length, 8)) : input.value;
  }
  if (tag === 'TEXTAREA') return textAreaValue(el as HTMLTextAreaElement);
  if (tag === 'SELECT') {
    const selected = Array.from((el as HTMLSelectElement).selectedOptions, (o) => collapse(o.label || o.text));
    return selected.length ? selected.join(', ') : null;
  }
  if (role === 'textbox' && (el as HTMLElement).isContentEditable) return collapse(el.textContent ?? '') || null;
  const ariaValue = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  return ariaValue;
}

function ariaTrue(el: Element, attribute: string): boolean {
  return el.getAttribute(attribute) === 'true';
}

/** What a date or time field takes when typed into, as its value is written. */
export const DATE_TIME_FORMATS: Record<string, string> = {
  date: 'YYYY-MM-DD',
  time: 'HH:MM',
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-Www',
};

/** Input types whose kind tells what the field expects; text, search and the rest say it by their role. */
const TYPED_TEXT = new Set(['email', 'tel', 'url', 'password']);

/** What a field expects: its kind (`type=email`), the format of a date or time, and the range it accepts. */
function expectations(el: Element, tag: string, value: string | null): string[] {
  if (tag !== 'INPUT') return [];
  const input = el as HTMLInputElement;
  const out: string[] = [];
  if (TYPED_TEXT.has(input.type)) out.push(`type=${input.type}`);
  const format = DATE_TIME_FORMATS[input.type];
  if (format && !value) out.push(`format=${format}`);
  if (format || input.type === 'number' || input.type === 'range') {
    if (input.min) out.push(`min=${clip(input.min, 20)}`);
    if (input.max) out.push(`max=${clip(input.max, 20)}`);
  }
  return out;
}

/**
 * The short annotations after a control's name: its value (passwords masked), what it expects (kind, format, range,
 * a placeholder that says more than the name), its states, and a link's shortened target.
 */
export function annotations(el: Element, tag: string, role: string, name: string, pageOrigin: string, pagePath = ''): string[] {
  const out: string[] = [];
  const value = valueOf(el, tag, role);
  if (value !== null && value !== '' && collapse(value) !== name) out.push(`value=${quote(clip(collapse(value), MAX_VALUE))}`);
  out.push(...expectations(el, tag, value));
  if (value === null) {
    // An empty field's placeholder often shows the form it expects ("e.g. SW1A 1AA"); when it is the name, once is enough.
    const placeholder = collapse(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '');
    if (placeholder && placeholder !== name) out.push(`placeholder=${quote(clip(placeholder, MAX_VALUE))}`);
  }
  const input = el as HTMLInputElement;
  if (tag === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
    if (input.checked) out.push('checked');
    else if (input.indeterminate) out.push('mixed');
  } else {
    const checked = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
    if (checked === 'true') out.push(role === 'button' ? 'pressed' : 'checked');
    else if (checked === 'mixed') out.push('mixed');
  }
  if (ariaTrue(el, 'aria-selected')) out.push('selected');
  const expanded = el.getAttribute('aria-expanded') ?? nativeExpanded(el, tag);
  if (expanded === 'true') out.push('expanded');
  else if (expanded === 'false') out.push('collapsed');
  if (nativeDisabled(el, tag) || ariaTrue(el, 'aria-disabled')) out.push('disabled');
  if ((el as HTMLInputElement).required || ariaTrue(el, 'aria-required')) out.push('required');
  if (ariaTrue(el, 'aria-invalid') || userInvalid(el)) out.push('invalid');
  if (role === 'link' || (tag === 'A' && el.hasAttribute('href'))) {
    // An SVG link's href is an SVGAnimatedString, not the address.
    const raw: unknown = (el as HTMLAnchorElement).href;
    const href = shortHref(typeof raw === 'string' ? raw : ((raw as SVGAnimatedString | undefined)?.animVal ?? ''), pageOrigin, pagePath);
    if (href) out.push(href);
  }
  return out;
}

/** `:user-invalid` arrived in Chrome 119; older versions throw on the selector, and then only aria-invalid counts. */
function userInvalid(el: Element): boolean {
  try {
    return el.matches(':user-invalid');
  } catch {
    return false;
  }
}

/**
 * Whether a control that says nothing with aria-expanded opens something by its markup, as Chromium's accessibility
 * tree has it: a details element's summary is expanded while the details are open, and a drop-down select is
 * collapsed until it is opened.
 */
function nativeExpanded(el: Element, tag: string): string | null {
  if (tag === 'SUMMARY') {
    const details = el.parentElement;
    if (details?.tagName !== 'DETAILS' || details.querySelector(':scope > summary') !== el) return null;
    return (details as HTMLDetailsElement).open ? 'true' : 'false';
  }
  if (tag === 'SELECT') {
    const select = el as HTMLSelectElement;
    return select.multiple || select.size > 1 ? null : 'false';
  }
  return null;
}

/** Disabled by its own attribute or by a disabled fieldset around it (`:disabled` says both). */
function nativeDisabled(el: Element, tag: string): boolean {
  if (tag === 'BUTTON' || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return el.matches(':disabled');
  return false;
}

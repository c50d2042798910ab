import type { ActOutcome, PageView } from './expressible-driver';

/** One numbered element as a snapshot line shows it: `[12] button "Add to cart" value="…"`. */
export interface Line {
  ref: number;
  role: string;
  name: string;
  /** The rest of the line after the name (value, states). */
  rest: string;
}

/** What a scripted solution may use: the page as the model is sent it, and Deputy's tools. Nothing else. */
export interface SolverKit {
  /** A fresh snapshot (and a screenshot with `sight`), as the model would be sent at this step. */
  look(sight?: boolean): Promise<PageView>;
  /** The latest snapshot text. */
  readonly text: string;
  /** Calls one of Deputy's web tools (the `page.act` action shape); throws when the tool reports failure. */
  act(action: Record<string, unknown>): Promise<ActOutcome>;
  /** Like act, but a failure is returned rather than thrown. */
  tryAct(action: Record<string, unknown>): Promise<ActOutcome>;
}

export class Unsolvable extends Error {}

/** The numbered elements of a snapshot text. */
export function lines(text: string): Line[] {
  const out: Line[] = [];
  for (const m of text.matchAll(/^\*?\[(\d+)\] ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/gm)) {
    out.push({ ref: Number(m[1]), role: m[2] ?? '', name: m[3] ?? '', rest: m[4] ?? '' });
  }
  return out;
}

/** The first numbered element with this role (any, with '*') whose name matches; throws what was there when none. */
export function find(text: string, role: string | RegExp, name: string | RegExp = /.*/): Line {
  const hit = findAll(text, role, name)[0];
  if (!hit) throw new Unsolvable(`no ${String(role)} named ${String(name)} in the snapshot`);
  return hit;
}

export function findAll(text: string, role: string | RegExp, name: string | RegExp = /.*/): Line[] {
  const roleOk = (r: string) => (typeof role === 'string' ? role === '*' || r === role : role.test(r));
  const nameOk = (n: string) => (typeof name === 'string' ? n === name : name.test(n));
  return lines(text).filter((line) => roleOk(line.role) && nameOk(line.name));
}

/** The first capture of a pattern in the snapshot text; throws when the page does not say it. */
export function said(text: string, pattern: RegExp): string[] {
  const m = pattern.exec(text);
  if (!m) throw new Unsolvable(`the snapshot does not say ${String(pattern)}`);
  return m.slice(1).map((part) => part ?? '');
}

export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An exact name, as a pattern. */
export function exactly(text: string, flags = ''): RegExp {
  return new RegExp(`^${escape(text)}$`, flags);
}

export const SUBMIT = /^submit$/i;

/** Where a tab-wide number points: one element in one frame's document, as that frame numbered it. */
export interface RefEntry {
  frameId: number;
  /** The content script instance (one per document) that gave the local number. */
  token: string;
  local: number;
  role: string;
  name: string;
  /** The frame's address when the number was given. */
  url: string;
}

/**
 * Tab-wide element numbers. Each frame numbers its own elements; this maps (frame, document, local number) to one
 * number the model sees, given once and never reused, so `[N]` always resolves to the frame and element it was given
 * for, and a number from a document that has since gone can only be re-found, never confused with a new element.
 */
export class RefTable {
  private readonly byKey = new Map<string, number>();
  private readonly entries = new Map<number, RefEntry>();
  private next = 1;

  get lastRef(): number {
    return this.next - 1;
  }

  numberFor(entry: RefEntry): number {
    const key = `${entry.frameId}/${entry.token}/${entry.local}`;
    let n = this.byKey.get(key);
    if (n === undefined) {
      n = this.next;
      this.next += 1;
      this.byKey.set(key, n);
    }
    // Role and name are kept current: they are what a stale number is re-found by.
    this.entries.set(n, entry);
    return n;
  }

  /**
   * Gives number `n` back to an element it named before this table existed (a service worker or browser restart
   * emptied it), so an action the user approved by that number still names the element. A number in use is kept.
   */
  restore(n: number, entry: RefEntry): boolean {
    if (this.entries.has(n)) return false;
    this.entries.set(n, entry);
    this.next = Math.max(this.next, n + 1);
    return true;
  }

  /** Never gives out numbers up to `n` again: they named elements before a restart, which the model may still use. */
  reserveThrough(n: number): void {
    this.next = Math.max(this.next, n + 1);
  }

  /** The number already given to a frame's element, if any (a lookup: no number is given). */
  numberOf(frameId: number, token: string, local: number): number | undefined {
    return this.byKey.get(`${frameId}/${token}/${local}`);
  }

  lookup(n: number): RefEntry | undefined {
    return this.entries.get(n);
  }
}

/** What was recorded about a numbered element, so it can be found again after the page re-renders it. */
export interface RefRecord {
  ref: number;
  role: string;
  name: string;
  /** Text next to the element in the last snapshot that showed it (e.g. the list item it belongs to). */
  context: string;
  /** Its position among the numbered elements of the last snapshot, a last resort to tell twins apart. */
  ordinal: number;
}

/**
 * Numbers elements for as long as they live: the same element always gets the same number, and a number is never
 * given to another element. The map holds elements weakly so numbering a page never keeps removed nodes alive.
 */
export class RefRegistry {
  private readonly byElement = new WeakMap<Element, number>();
  private readonly byRef = new Map<number, WeakRef<Element>>();
  private readonly records = new Map<number, RefRecord>();
  private next = 1;

  /** Highest number given so far; numbers above a previous value are elements first seen since then. */
  get lastRef(): number {
    return this.next - 1;
  }

  refOf(el: Element): number {
    let ref = this.byElement.get(el);
    if (ref === undefined) {
      ref = this.next;
      this.next += 1;
      this.byElement.set(el, ref);
      this.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  peek(el: Element): number | undefined {
    return this.byElement.get(el);
  }

  /** The live element for a number, or undefined when it was removed from the page or collected. */
  element(ref: number): Element | undefined {
    const el = this.byRef.get(ref)?.deref();
    return el && el.isConnected ? el : undefined;
  }

  remember(record: RefRecord): void {
    this.records.set(record.ref, record);
  }

  record(ref: number): RefRecord | undefined {
    return this.records.get(ref);
  }

  known(ref: number): boolean {
    return this.byRef.has(ref);
  }
}

/** Waiters for the next event of a kind in a tab (a dialog opening, a file picker), as promises that can be cancelled. */
export class TabWaiters<T> {
  private readonly waiters = new Map<number, Set<(value: T) => void>>();

  /** Settles with the next value the tab gets; cancel() stops waiting. */
  next(tabId: number): { value: Promise<T>; cancel: () => void } {
    let waiter: (value: T) => void = () => undefined;
    const value = new Promise<T>((resolve) => (waiter = resolve));
    let set = this.waiters.get(tabId);
    if (!set) {
      set = new Set();
      this.waiters.set(tabId, set);
    }
    set.add(waiter);
    return { value, cancel: () => set.delete(waiter) };
  }

  /** Hands the value to everyone waiting on the tab. */
  settle(tabId: number, value: T): void {
    for (const waiter of this.waiters.get(tabId) ?? []) waiter(value);
  }
}

import { useEffect, useRef, useState } from 'preact/hooks';

/** How long a deleted task can still be brought back. */
export const UNDO_MS = 8000;

/**
 * Deletion with undo: the item leaves the list at once, and is really deleted only after the undo time, or when the
 * view closes; Undo in between brings it back untouched.
 */
export function useUndoableDelete(commit: (id: string) => Promise<unknown>): { pending: string | undefined; remove: (id: string) => void; undo: () => void } {
  const [pending, setPending] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef<{ pending: string | undefined; commit: typeof commit }>({ pending, commit });
  latest.current = { pending, commit };
  const flush = (): void => {
    clearTimeout(timer.current);
    const id = latest.current.pending;
    if (id !== undefined) void latest.current.commit(id).catch(() => undefined);
  };
  // Leaving the view commits the deletion the user asked for.
  useEffect(() => flush, []);
  const remove = (id: string): void => {
    flush();
    setPending(id);
    timer.current = setTimeout(() => {
      setPending(undefined);
      void latest.current.commit(id).catch(() => undefined);
    }, UNDO_MS);
  };
  const undo = (): void => {
    clearTimeout(timer.current);
    setPending(undefined);
  };
  return { pending, remove, undo };
}

import { useEffect, useRef } from 'preact/hooks';

/**
 * Esc anywhere in the page stops the running task, as Stop does. A control that uses Esc itself (closing an editor)
 * calls preventDefault, and the task goes on. The popup leaves this off: there Esc closes the popup.
 */
export function useEscapeToStop(enabled: boolean, stop: () => void): void {
  const latest = useRef(stop);
  latest.current = stop;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}

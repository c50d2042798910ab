import { useEffect, useRef, useState } from 'preact/hooks';
import type { TaskMode } from '../../shared/protocol';
import type { BackgroundClient } from './background-client';

/**
 * The mode a new task starts in: the saved default, which arrives a moment after the box shows, unless the user has
 * chosen one meanwhile (their choice wins).
 */
export function useTaskMode(client: BackgroundClient): [TaskMode, (mode: TaskMode) => void] {
  const [mode, setMode] = useState<TaskMode>('ask');
  const chosen = useRef(false);
  useEffect(() => {
    client.call('settings.get', {}).then((settings) => chosen.current || setMode(settings.defaultMode), () => undefined);
  }, [client]);
  const choose = (next: TaskMode): void => {
    chosen.current = true;
    setMode(next);
  };
  return [mode, choose];
}

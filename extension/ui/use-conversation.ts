import { useEffect, useState } from 'preact/hooks';
import type { TaskRecord } from '../../shared/protocol';
import { isActiveTask } from './task-format';

export interface Conversation {
  /** The task shown as the view's thread, unless the user set it aside for a new one. */
  shown: TaskRecord | undefined;
  /** The ended task the box below continues, when there is one. */
  followUp: { taskId: string } | undefined;
  /** Sets the shown task aside: the box starts a new task. */
  newTask: () => void;
}

/**
 * Which task a view shows as its conversation and whether the box at the bottom continues it. An ended task is
 * continued by default; "New task" or text put in the box from outside (a rerun, a template, an example) sets it aside.
 */
export function useConversation(record: TaskRecord | undefined, presetAt: number | undefined): Conversation {
  const [setAside, setSetAside] = useState<string | undefined>(undefined);
  const newTask = (): void => {
    if (record && !isActiveTask(record)) setSetAside(record.id);
  };
  // Only a task that ended before the text was put there: one run since (the view was opened again) stays shown.
  useEffect(() => {
    if (presetAt !== undefined && record && record.updatedAt < presetAt) newTask();
  }, [presetAt]);
  const shown = record && record.id !== setAside ? record : undefined;
  const followUp = shown && !isActiveTask(shown) && shown.agent ? { taskId: shown.id } : undefined;
  return { shown, followUp, newTask };
}

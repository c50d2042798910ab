import { z } from 'zod';
import { StoredRoutine } from '../../../shared/routines/routine';
import type { Store } from '../../platform/storage';

const KEY = 'routines';
const Saved = z.array(StoredRoutine);

/** The user's routines, in chrome.storage.local under one key (a handful of small JSON documents). */
export class RoutineStore {
  constructor(private readonly store: Store) {}

  async list(): Promise<StoredRoutine[]> {
    return (await this.store.get(KEY, Saved)) ?? [];
  }

  async get(id: string): Promise<StoredRoutine | undefined> {
    return (await this.list()).find((r) => r.id === id);
  }

  async put(routine: StoredRoutine): Promise<StoredRoutine> {
    const others = (await this.list()).filter((r) => r.id !== routine.id);
    await this.store.set(KEY, [...others, routine]);
    return routine;
  }

  async delete(id: string): Promise<boolean> {
    const all = await this.list();
    const kept = all.filter((r) => r.id !== id);
    if (kept.length === all.length) return false;
    await this.store.set(KEY, kept);
    return true;
  }
}

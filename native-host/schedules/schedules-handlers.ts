import { rename } from 'node:fs/promises';
import type { HostMethods } from '../../shared/protocol';
import type { HostSchedule } from '../../shared/routines/host-schedules';
import type { Handlers } from '../host/router';
import { readSchedulesFile, writeSchedulesFile } from './schedules-file';

/**
 * `schedules.sync`: the extension hands over its schedules (no values) whenever they change; the host keeps them. A
 * copy read before the one on disk was written (the browser run-due started syncs as it connects, while run-due
 * writes what its runs changed) is dropped. A file that is not one Deputy wrote is moved aside, not lost, and written
 * again from the extension's schedules, which are the truth. Syncs are kept one after the other: the extension sends one
 * per change, so two schedules set in a row arrive together, and a copy read before the newer one was written would
 * otherwise be written over it (the host then missed the last schedule set).
 */
export function schedulesHandlers(options: { file: string; now: () => number }): Pick<Handlers<HostMethods>, 'schedules.sync'> {
  let queue: Promise<unknown> = Promise.resolve();
  const keep = async (schedules: HostSchedule[], at: number | undefined): Promise<{ file: string; kept: boolean }> => {
    const stamp = at ?? options.now();
    const kept = await readSchedulesFile(options.file).catch(async () => {
      await rename(options.file, `${options.file}.bad-${options.now()}`).catch(() => undefined);
      return null;
    });
    if (kept && kept.syncedAt > stamp) return { file: options.file, kept: false };
    await writeSchedulesFile(options.file, schedules, stamp);
    return { file: options.file, kept: true };
  };
  return {
    'schedules.sync': ({ schedules, at }) => {
      const next = queue.then(() => keep(schedules, at));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

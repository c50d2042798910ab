import { rename } from 'node:fs/promises';
import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import { readSchedulesFile, writeSchedulesFile } from './schedules-file';

/**
 * `schedules.sync`: the extension hands over its schedules (no values) whenever they change; the host keeps them. A
 * copy read before the one on disk was written (the browser run-due started syncs as it connects, while run-due
 * writes what its runs changed) is dropped. A file that is not one Deputy wrote is moved aside, not lost, and written
 * again from the extension's schedules, which are the truth.
 */
export function schedulesHandlers(options: { file: string; now: () => number }): Pick<Handlers<HostMethods>, 'schedules.sync'> {
  return {
    'schedules.sync': async ({ schedules, at }) => {
      const stamp = at ?? options.now();
      const kept = await readSchedulesFile(options.file).catch(async () => {
        await rename(options.file, `${options.file}.bad-${options.now()}`).catch(() => undefined);
        return null;
      });
      if (kept && kept.syncedAt > stamp) return { file: options.file, kept: false };
      await writeSchedulesFile(options.file, schedules, stamp);
      return { file: options.file, kept: true };
    },
  };
}

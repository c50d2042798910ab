import type { HostMethods } from '../../shared/protocol';
import type { Handlers } from '../host/router';
import { writeSchedulesFile } from './schedules-file';

/** `schedules.sync`: the extension hands over its schedules (no values) whenever they change; the host keeps them. */
export function schedulesHandlers(options: { file: string; now: () => number }): Pick<Handlers<HostMethods>, 'schedules.sync'> {
  return {
    'schedules.sync': async ({ schedules }) => {
      await writeSchedulesFile(options.file, schedules, options.now());
      return { file: options.file };
    },
  };
}

import type { Logger } from '../../../shared/logger';
import type { RoutineSchedule } from '../../../shared/routines/routine-schedule';
import { toHostSchedule } from '../../../shared/routines/host-schedules';
import type { HostConnection } from './host-connection';

/**
 * Hands the schedules to the native host, which keeps them (without their values: a secret's placeholder never
 * leaves the extension either) so `deputy schedules run-due` can run them when the browser is closed. Called on every
 * change and when the host connects; a host that is not there misses nothing, as the next connect sends them all.
 */
export function syncSchedulesToHost(host: Pick<HostConnection, 'call' | 'status'>, schedules: RoutineSchedule[], log: Logger): void {
  if (host.status.state !== 'connected') return;
  // Stamped now, just after the list was read: the host keeps the newest copy only.
  void host.call('schedules.sync', { schedules: schedules.map(toHostSchedule), at: Date.now() }).catch((error: unknown) => log.warn('schedules not synced to the host', { error: String(error) }));
}

import { AppError } from '../errors';
import type { Routine } from './routine';

const REFERENCE = /^\{\{\s*([a-z][a-z0-9_]{0,63})\s*\}\}$/;

/** The personal-data entry a value names (`{{card_number}}` → card_number), or null for a value given in clear. */
export function personalDataReference(value: string): string | null {
  return REFERENCE.exec(value.trim())?.[1] ?? null;
}

/**
 * A schedule's values as they may be kept: its plain values as given, and each secret parameter only as a placeholder
 * naming an entry of the user's personal data (Settings → Personal data, the store the agent already types secrets
 * from). A secret given in clear is refused, with what to do instead: a schedule lives in storage for months, and a
 * value written there would sit on disk beside the schedule.
 */
export function keepableScheduleParams(routine: Routine, params: Record<string, string>, personalData: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = { ...params };
  for (const param of routine.params) {
    if (param.kind !== 'secret') continue;
    const value = params[param.name];
    if (value === undefined || value.trim() === '') continue;
    const entry = personalDataReference(value);
    if (entry === null) {
      throw new AppError(
        'bad_request',
        `A schedule never keeps a secret in clear: save the value of ${param.name} in Settings → Personal data (for example as card_number), then give {{card_number}} for ${param.name} here.`,
      );
    }
    if (!(entry in personalData)) {
      const names = Object.keys(personalData);
      throw new AppError(
        'bad_request',
        `${param.name} names {{${entry}}}, which is not in Settings → Personal data (${names.length > 0 ? `its entries: ${names.join(', ')}` : 'it is empty'}): add it there, or name an entry it has.`,
      );
    }
    kept[param.name] = `{{${entry}}}`;
  }
  return kept;
}

/**
 * The values a scheduled run starts with: each secret's placeholder replaced by its personal-data value at the moment
 * the run starts (the value goes to the run's vault in session memory only, as a secret typed in the form would).
 */
export function resolveScheduleParams(routine: Routine, params: Record<string, string>, personalData: Record<string, string>): Record<string, string> {
  const resolved: Record<string, string> = { ...params };
  for (const param of routine.params) {
    if (param.kind !== 'secret') continue;
    const value = params[param.name];
    if (value === undefined) continue;
    const entry = personalDataReference(value);
    if (entry === null) throw new AppError('bad_request', `${param.name} was kept in clear by an older version and was dropped: set the schedule again with a personal-data placeholder for it.`);
    const secret = personalData[entry];
    if (secret === undefined || secret === '') throw new AppError('not_found', `${param.name} names {{${entry}}}, which is no longer in Settings → Personal data: add it there again, or set the schedule again.`);
    resolved[param.name] = secret;
  }
  return resolved;
}

/** A schedule's values with any secret kept in clear (by a version before this rule) removed: what reconcile keeps. */
export function dropClearSecrets(routine: Routine, params: Record<string, string>): { params: Record<string, string>; dropped: string[] } {
  const kept: Record<string, string> = { ...params };
  const dropped: string[] = [];
  for (const param of routine.params) {
    const value = params[param.name];
    if (param.kind !== 'secret' || value === undefined || personalDataReference(value) !== null) continue;
    delete kept[param.name];
    dropped.push(param.name);
  }
  return { params: kept, dropped };
}

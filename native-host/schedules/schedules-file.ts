import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '../../shared/errors';
import { HostSchedule, SchedulesFile } from '../../shared/routines/host-schedules';
import { writeFileAtomic } from '../atomic-file';
import { appPaths, currentPathEnv } from '../paths';

/** Where the host keeps its copy of the extension's schedules: DEPUTY_STATE_DIR, else the host's state folder. */
export function defaultSchedulesFile(env: Record<string, string | undefined> = process.env): string {
  return join(env.DEPUTY_STATE_DIR ?? appPaths(currentPathEnv()).stateDir, 'schedules.json');
}

/**
 * Reads the schedules file. Missing: no schedule was ever synced (an empty list). Unreadable or not in its shape: an
 * error that names the file and what to do, and the file is left exactly as it is (nothing is lost to a rewrite).
 */
export async function readSchedulesFile(file: string): Promise<SchedulesFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, syncedAt: 0, schedules: [] };
    throw new AppError('unavailable', `The schedules file ${file} cannot be read (${(error as Error).message}): check its permissions.`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_config', badFile(file, 'it is not JSON'));
  }
  const parsed = SchedulesFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('bad_config', badFile(file, issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'its shape is wrong'));
  }
  return parsed.data;
}

function badFile(file: string, why: string): string {
  return `The schedules file ${file} is not one Deputy wrote (${why}). It was left as it is and nothing ran: move it aside, then open Deputy in the browser once (it writes the file again from the schedules it keeps).`;
}

/** Writes the file atomically (the project's temp, fsync, rename), in a folder and file readable by the user only. */
export async function writeSchedulesFile(file: string, schedules: HostSchedule[], now: number): Promise<void> {
  const content: SchedulesFile = { version: 1, syncedAt: now, schedules: schedules.map((s) => HostSchedule.parse(s)) };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`);
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentState } from '../../../shared/agent/agent-state';
import { stoppedAtCostCap } from '../../../shared/agent/cost-cap';
import { AppError, describeZodError } from '../../../shared/errors';

/**
 * The task a desktop run folder saved (state.json), to go on with after its cost cap. Only a task that stopped at its
 * cap goes on: any other ended task is the user's record of a run, and a new task is the way to do more.
 */
export async function loadCappedDesktopTask(runDir: string): Promise<AgentState> {
  const file = join(runDir, 'state.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AppError('not_found', `There is no saved desktop task at ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}): give the run folder a task printed as "run folder".`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_config', `${file} is not valid JSON (a disk problem?): the task cannot go on; start a new one.`);
  }
  const parsed = AgentState.safeParse(json);
  if (!parsed.success) throw new AppError('bad_config', `${file} cannot be continued: ${describeZodError(parsed.error)}.`);
  if (!stoppedAtCostCap(parsed.data)) {
    throw new AppError('bad_request', `The task in ${runDir} ended ${parsed.data.status} (${parsed.data.endReason ?? 'no reason given'}), not at its cost cap: only a task stopped at its cap goes on; start a new task instead.`);
  }
  return parsed.data;
}

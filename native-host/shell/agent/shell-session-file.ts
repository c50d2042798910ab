import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentState } from '../../../shared/agent/agent-state';
import { stoppedAtCostCap } from '../../../shared/agent/cost-cap';
import { AppError, describeZodError } from '../../../shared/errors';
import { ShellProcess } from '../../../shared/protocol/shell-protocol';
import { writeFileAtomic } from '../../atomic-file';
import { TargetSpec } from '../shell-target';

export const ProcessRecordFile = ShellProcess.omit({ outputBytes: true, outputLines: true, unread: true });

/**
 * A shell session as saved after every step (session.json beside log.jsonl): what it was asked, where, in which mode,
 * the agent's state and the processes it started. It holds no key and no secret value, so a resumed session asks the
 * caller for the model again and has forgotten the values behind redacted placeholders.
 */
export const ShellSessionFile = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  target: TargetSpec,
  targetLabel: z.string(),
  objective: z.string(),
  mode: z.enum(['ask', 'act']),
  model: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  waitMs: z.number().int().positive(),
  maxSteps: z.number().int().positive(),
  /** The cost cap per turn in dollars the session last ran under; absent: none. */
  maxCostUsd: z.number().positive().optional(),
  agent: AgentState.nullable(),
  processes: z.array(ProcessRecordFile),
});
export type ShellSessionFile = z.infer<typeof ShellSessionFile>;

export function sessionPaths(root: string, sessionId: string): { dir: string; state: string; log: string } {
  const dir = join(root, sessionId);
  return { dir, state: join(dir, 'session.json'), log: join(dir, 'log.jsonl') };
}

/** A new session id that sorts by time and names the moment: 20250114-093012-k3f9. */
export function newSessionId(now: number, random: () => number = Math.random): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.floor(random() * 36 ** 4).toString(36).padStart(4, '0')}`;
}

export function saveSessionFile(path: string, file: ShellSessionFile): void {
  writeFileAtomic(path, JSON.stringify(file));
}

export async function loadSessionFile(path: string): Promise<ShellSessionFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AppError('not_found', `There is no shell session at ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}): list the sessions with deputy shell --sessions.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_config', `The saved session ${path} is not valid JSON (a disk problem?): it cannot be resumed; its log.jsonl beside it still has everything that happened.`);
  }
  const parsed = ShellSessionFile.safeParse(json);
  if (!parsed.success) throw new AppError('bad_config', `The saved session ${path} cannot be resumed: ${describeZodError(parsed.error)}. Its log.jsonl beside it still has everything that happened.`);
  return parsed.data;
}

export interface SessionSummary {
  sessionId: string;
  dir: string;
  target: string;
  objective: string;
  mode: 'ask' | 'act';
  status: string;
  updatedAt: number;
  /** Whether it stopped before its end (a crash, a closed browser) and can go on. */
  resumable: boolean;
}

/** The saved sessions, newest first; unreadable ones are listed as such rather than hidden. */
export async function listSessions(root: string, limit = 20): Promise<SessionSummary[]> {
  let names: string[];
  try {
    names = (await readdir(root)).sort().reverse().slice(0, limit);
  } catch {
    return [];
  }
  const out: SessionSummary[] = [];
  for (const name of names) {
    const paths = sessionPaths(root, name);
    try {
      const file = await loadSessionFile(paths.state);
      const status = file.agent?.status ?? 'starting';
      out.push({
        sessionId: file.sessionId,
        dir: paths.dir,
        target: file.targetLabel,
        objective: file.objective,
        mode: file.mode,
        status,
        updatedAt: file.updatedAt,
        // A session stopped at its cost cap goes on under a new one.
        resumable: !['completed', 'failed', 'stopped', 'handed_to_user'].includes(status) || (file.agent !== null && stoppedAtCostCap(file.agent)),
      });
    } catch (error) {
      // A session that never connected has only its log (which says why): there is nothing to list or resume.
      if (error instanceof AppError && error.code === 'not_found') continue;
      out.push({ sessionId: name, dir: paths.dir, target: '?', objective: error instanceof Error ? error.message : String(error), mode: 'ask', status: 'unreadable', updatedAt: 0, resumable: false });
    }
  }
  return out;
}

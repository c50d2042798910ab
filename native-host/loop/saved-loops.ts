import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopSnapshot } from '../../shared/protocol/loop-protocol';
import { LoopState } from './loop-state';
import { lockHeld } from './state-store';

/**
 * The loops recorded in a state folder, whoever ran them (the CLI, an earlier host): what a side panel lists so the
 * user can see a loop's outcome or resume it. A loop counts as running while the process holding its lock is alive.
 * Damaged state files are skipped here; opening that loop reports them.
 */
export function savedLoops(stateDir: string): LoopSnapshot[] {
  const root = join(stateDir, 'loops');
  if (!existsSync(root)) return [];
  const found: LoopSnapshot[] = [];
  for (const name of readdirSync(root)) {
    const stateFile = join(root, name, 'state.json');
    if (!existsSync(stateFile)) continue;
    let parsed;
    try {
      parsed = LoopState.safeParse(JSON.parse(readFileSync(stateFile, 'utf8')));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const state = parsed.data;
    const lockFile = join(root, name, 'lock');
    found.push({
      loopId: state.loopId,
      repo: state.repo,
      running: lockHeld(lockFile),
      iteration: state.iteration,
      step: state.step,
      costUsd: state.costUsd,
      startedAt: state.startedAt,
      stateFile,
      ...(state.outcome ? { outcome: state.outcome } : {}),
      ...(state.reason ? { reason: state.reason } : {}),
    });
  }
  return found.sort((a, b) => b.startedAt - a.startedAt);
}

import { pathApi } from './browsers';
import { checkManifest } from './host-manifest';
import type { HostTarget } from './host-layout';
import type { InstallPlan, UninstallPlan } from './install-plan';
import { addRegistryDefault, deleteRegistryKey, readRegistryDefault } from './registry';
import type { CommandRunner, InstallFs } from './system';

export interface ApplyDeps {
  fs: InstallFs;
  run: CommandRunner;
}

/** One thing install or uninstall did, for the report the CLI prints. */
export type Change =
  | { kind: 'launcher'; path: string }
  | { kind: 'manifest'; path: string; target: HostTarget }
  | { kind: 'registry'; key: string; value?: string; target: HostTarget };

/** Writes the launcher first, so no manifest ever points at a launcher that is not there yet. */
export async function applyInstall(plan: InstallPlan, { fs, run }: ApplyDeps): Promise<Change[]> {
  const changes: Change[] = [];
  await fs.writeAtomic(plan.launcher.path, plan.launcher.content, plan.launcher.mode);
  changes.push({ kind: 'launcher', path: plan.launcher.path });
  for (const file of plan.manifests) {
    await fs.writeAtomic(file.path, file.content, file.mode);
    changes.push({ kind: 'manifest', path: file.path, target: file.target });
  }
  for (const entry of plan.registry) {
    await addRegistryDefault(run, entry.key, entry.value);
    changes.push({ kind: 'registry', key: entry.key, value: entry.value, target: entry.target });
  }
  return changes;
}

export interface UninstallResult {
  removed: Change[];
  /** Set when the launcher was left because another registration still uses it. */
  launcherKeptFor: HostTarget[];
}

/**
 * Removes what install wrote for the planned targets: registry keys, manifests, then the launcher unless a
 * registration this run leaves in place still points at it. Running it twice removes nothing the second time.
 */
export async function applyUninstall(plan: UninstallPlan, { fs, run }: ApplyDeps): Promise<UninstallResult> {
  const removed: Change[] = [];
  for (const target of plan.remove) {
    if (target.registryKey !== undefined && (await deleteRegistryKey(run, target.registryKey))) {
      removed.push({ kind: 'registry', key: target.registryKey, target });
    }
    if (await fs.remove(target.manifestPath)) removed.push({ kind: 'manifest', path: target.manifestPath, target });
  }
  const launcherKeptFor: HostTarget[] = [];
  for (const target of plan.keep) {
    if ((await manifestLauncher(target, plan.os, { fs, run })) === plan.launcherPath) launcherKeptFor.push(target);
  }
  if (launcherKeptFor.length === 0 && (await fs.remove(plan.launcherPath))) {
    removed.push({ kind: 'launcher', path: plan.launcherPath });
  }
  // The folders install created, now empty: a browser data folder left behind would look like an installed browser.
  const path = pathApi(plan.os);
  for (const change of removed) {
    if (change.kind === 'registry') continue;
    const boundary = change.kind === 'launcher' ? plan.launcherPruneAbove : change.target.pruneAbove;
    await pruneEmptyFolders(fs, path, path.dirname(change.path), boundary);
  }
  return { removed, launcherKeptFor };
}

async function pruneEmptyFolders(fs: InstallFs, path: ReturnType<typeof pathApi>, start: string, boundary: string): Promise<void> {
  const relative = path.relative(boundary, start);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
  for (let dir = start; dir !== boundary && dir.startsWith(boundary); dir = path.dirname(dir)) {
    if (!(await fs.removeEmptyDir(dir))) return;
  }
}

/** The launcher a registration points at, when it is registered. */
async function manifestLauncher(target: HostTarget, os: InstallPlan['os'], { fs, run }: ApplyDeps): Promise<string | undefined> {
  const manifestPath = target.registryKey === undefined ? target.manifestPath : await readRegistryDefault(run, target.registryKey);
  if (manifestPath === undefined) return undefined;
  const text = await fs.readText(manifestPath);
  if (text === undefined) return undefined;
  const check = checkManifest(text, os);
  return check.ok ? check.manifest.path : undefined;
}

/** Deps under which applyUninstall only reports: removals and `reg delete` succeed without touching anything. */
export function dryRunDeps({ fs, run }: ApplyDeps): ApplyDeps {
  return {
    fs: { ...fs, remove: async (path) => (await fs.probe(path)) !== undefined, removeEmptyDir: () => Promise.resolve(false) },
    run: (command, args) => (args[0] === 'delete' ? Promise.resolve({ code: 0, stdout: '', stderr: '' }) : run(command, args)),
  };
}

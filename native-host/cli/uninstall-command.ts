import { NATIVE_HOST_NAME } from '../../shared/constants';
import { ALL_BROWSERS } from '../install/browsers';
import { applyUninstall, dryRunDeps, type Change } from '../install/install-apply';
import { planUninstall } from '../install/install-plan';
import { bridgePaths } from '../mcp/bridge-paths';
import { appPaths } from '../paths';
import type { CliEnv } from './cli-env';
import { chooseTargets, listNames, row, type TargetOptions } from './target-options';

export interface UninstallOptions extends TargetOptions {
  dryRun?: boolean;
}

/** `deputy uninstall`: removes what install wrote (all browsers unless --browser narrows it) and says what it removed. */
export async function uninstallCommand(options: UninstallOptions, cli: CliEnv): Promise<number> {
  const chosen = chooseTargets(options, cli);
  const plan = planUninstall({
    os: cli.os,
    home: cli.home,
    env: cli.env,
    browsers: chosen.browsers ?? ALL_BROWSERS,
    userDataDir: chosen.userDataDir,
  });
  const deps = { fs: cli.fs, run: cli.run };
  const result = await applyUninstall(plan, options.dryRun ? dryRunDeps(deps) : deps);
  if (!options.dryRun && result.removed.some((change) => change.kind === 'launcher')) await removeBridgeLeftovers(cli);
  const where = chosen.userDataDir === undefined ? listNames(plan.remove.map((target) => target.label), 'or') : `the profile ${chosen.userDataDir}`;
  if (result.removed.length === 0) {
    cli.out(`Nothing to remove: the Deputy native host (${NATIVE_HOST_NAME}) is not registered for ${where}.`);
  } else {
    cli.out(options.dryRun ? 'Dry run: nothing was removed. deputy uninstall would remove:' : 'Removed the Deputy native host:');
    for (const change of result.removed) cli.out(describe(change));
  }
  if (result.launcherKeptFor.length > 0) {
    const users = listNames(result.launcherKeptFor.map((target) => target.label));
    cli.out(`Kept the launcher ${plan.launcherPath}: ${users} still use${result.launcherKeptFor.length === 1 ? 's' : ''} it.`);
  }
  return 0;
}

function describe(change: Change): string {
  if (change.kind === 'launcher') return row('launcher', change.path);
  if (change.kind === 'manifest') return row(change.target.label, change.path);
  return row(change.target.label, `registry key ${change.key}`);
}

/**
 * With the launcher gone no host can run, so the bridge's socket and token a host left in Deputy's data folder (where
 * there is no per-user runtime folder) go too, and with them the folders install created.
 */
async function removeBridgeLeftovers(cli: CliEnv): Promise<void> {
  const pathEnv = { platform: cli.os, home: cli.home, env: cli.env };
  const { dataDir } = appPaths(pathEnv);
  const bridge = bridgePaths(pathEnv);
  if (!bridge.dir.startsWith(`${dataDir}/`) && !bridge.dir.startsWith(`${dataDir}\\`)) return;
  if (cli.os !== 'win32') await cli.fs.remove(bridge.socket);
  await cli.fs.remove(bridge.tokenFile);
  if (await cli.fs.removeEmptyDir(bridge.dir)) await cli.fs.removeEmptyDir(dataDir);
}

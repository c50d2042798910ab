import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../shared/constants';
import { AppError } from '../../shared/errors';
import { ALL_BROWSERS, browserLabel } from '../install/browsers';
import { applyInstall } from '../install/install-apply';
import { CHECKOUT_COMMANDS } from '../install/host-script';
import { detectBrowsers, planInstall, type InstallPlan } from '../install/install-plan';
import { EXTENSION_ID_PATTERN, extensionOrigin, otherAllowedOrigins } from '../install/host-manifest';
import { regAddArgs } from '../install/registry';
import { hostLogFile } from '../paths';
import type { CliEnv } from './cli-env';
import { chooseTargets, listNames, row, type TargetOptions } from './target-options';
import { UsageError } from './usage-error';

export interface InstallOptions extends TargetOptions {
  dryRun?: boolean;
  /** Comma-separated extension ids to allow besides Deputy's pinned one (a copy installed from a store). */
  extensionId?: string;
}

/** Parses --extension-id: ids as chrome://extensions (and Deputy's side panel) show them. */
export function parseExtensionIds(value: string | undefined): string[] {
  if (value === undefined) return [];
  const ids = value.split(',').map((id) => id.trim()).filter((id) => id !== '');
  const bad = ids.filter((id) => !EXTENSION_ID_PATTERN.test(id));
  if (ids.length === 0 || bad.length > 0) {
    throw new UsageError(
      `--extension-id takes extension ids (32 letters a to p, as chrome://extensions shows them), comma-separated; got ${bad.map((id) => `"${id}"`).join(', ') || 'none'}`,
    );
  }
  return ids.map(extensionOrigin);
}

/**
 * `deputy install`: registers the built host with the browsers. Without --browser it picks the browsers that have a
 * user data folder for this user; when none has one yet it registers all of them, so a browser installed later finds
 * the host without a second install.
 */
export async function installCommand(options: InstallOptions, cli: CliEnv): Promise<number> {
  const chosen = chooseTargets(options, cli);
  const added = parseExtensionIds(options.extensionId);
  const commands = cli.commands ?? CHECKOUT_COMMANDS;
  if ((await cli.fs.probe(cli.hostScript)) === undefined) {
    throw new AppError(
      'not_found',
      commands === CHECKOUT_COMMANDS
        ? `${cli.hostScript} is missing: run npm run build first (or ${commands.install}, which builds it)`
        : `${cli.hostScript} is missing: this deputy package is incomplete; install it again (npm install -g <the deputy package>)`,
    );
  }
  const base = { os: cli.os, home: cli.home, env: cli.env };
  let browsers = chosen.browsers;
  let skipped: string[] = [];
  let noneFound = false;
  if (browsers === undefined) {
    const found = await detectBrowsers({ ...base, browsers: ALL_BROWSERS }, async (path) => (await cli.fs.probe(path)) !== undefined);
    noneFound = found.length === 0;
    browsers = noneFound ? [...ALL_BROWSERS] : found;
    skipped = ALL_BROWSERS.filter((id) => !found.includes(id)).map(browserLabel);
  }
  const layoutInput = { ...base, browsers, userDataDir: chosen.userDataDir };
  // A copy of Deputy with another id (from a store) that an earlier install allowed keeps working after this one.
  const kept: string[] = [];
  for (const target of planInstall({ ...layoutInput, nodePath: cli.nodePath, hostScript: cli.hostScript, version: cli.version }).manifests) {
    kept.push(...otherAllowedOrigins(await cli.fs.readText(target.path), cli.os));
  }
  const plan = planInstall({
    ...layoutInput,
    nodePath: cli.nodePath,
    hostScript: cli.hostScript,
    version: cli.version,
    otherOrigins: [...new Set([...kept, ...added])],
  });

  if (options.dryRun) {
    cli.out(`Dry run: nothing was written. deputy install would write:`);
    printPlan(plan, cli);
    for (const entry of plan.registry) cli.out(`reg ${regAddArgs(entry.key, entry.value).join(' ')}`);
    cli.out(`--- ${plan.launcher.path}`);
    for (const line of plan.launcher.content.trimEnd().split(/\r?\n/)) cli.out(line);
    const manifest = plan.manifests[0];
    if (manifest) {
      cli.out(`--- ${plan.manifests.length > 1 ? 'each manifest' : manifest.path}`);
      for (const line of manifest.content.trimEnd().split('\n')) cli.out(line);
    }
    return 0;
  }

  await applyInstall(plan, { fs: cli.fs, run: cli.run });
  const names = plan.manifests.map((file) => file.target.label);
  cli.out(
    chosen.userDataDir === undefined
      ? `Installed the Deputy native host (${NATIVE_HOST_NAME} ${cli.version}) for ${listNames(names)}:`
      : `Installed the Deputy native host (${NATIVE_HOST_NAME} ${cli.version}) in the profile ${chosen.userDataDir}:`,
  );
  printPlan(plan, cli);
  if (noneFound) {
    cli.out(`No Chrome, Chromium, Brave or Edge user data folder was found, so the host is registered for all four; a browser installed later will find it.`);
  } else if (skipped.length > 0) {
    cli.out(`Skipped ${listNames(skipped)}: no user data folder for them here. To register them anyway: deputy install --browser all`);
  }
  if (chosen.userDataDir !== undefined && cli.os === 'darwin') {
    cli.out('Note: on macOS Chrome reads native hosts from ~/Library/Application Support only, not from a --user-data-dir profile.');
  }
  if (/[\\/]\.nvm[\\/]|[\\/]fnm[\\/]/.test(plan.runs.nodePath)) {
    cli.out(`Note: the launcher runs this exact Node (${plan.runs.nodePath}); if you remove that version, run ${commands.install} again.`);
  }
  cli.out(`Next: reload Deputy in the browser (or press Retry in its side panel), then check with: ${commands.doctor}`);
  cli.out(`Host log: ${hostLogFile({ platform: cli.os, home: cli.home, env: cli.env })} (set DEPUTY_LOG_FILE to move it)`);
  return 0;
}

function printPlan(plan: InstallPlan, cli: CliEnv): void {
  cli.out(row('launcher', plan.launcher.path));
  cli.out(row('', `runs ${plan.runs.nodePath} ${plan.runs.hostScript} native-host`));
  for (const file of plan.manifests) {
    const entry = plan.registry.find((item) => item.target === file.target);
    cli.out(row(file.target.label, file.path));
    if (entry) cli.out(row('', `registry ${entry.key} = ${entry.value}`));
  }
  const manifest = plan.manifests[0];
  const origins = manifest ? (JSON.parse(manifest.content) as { allowed_origins: string[] }).allowed_origins : [EXTENSION_ORIGIN];
  for (const origin of origins) cli.out(row('allows', origin));
}

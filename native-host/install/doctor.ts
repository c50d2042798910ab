import { PROTOCOL_VERSION } from '../../shared/constants';
import { pathApi } from './browsers';
import { hostLayout, type HostTarget, type LayoutInput } from './host-layout';
import { checkManifest } from './host-manifest';
import type { HelloResult, HostProbe, ProbeResult } from './host-probe';
import { parseLauncher, type LauncherTarget } from './launcher';
import { readRegistryDefault } from './registry';
import type { CommandRunner, InstallFs } from './system';

/** `slow`: the host was started and kept running, but had not answered hello when the probe stopped waiting. */
export type TargetState = 'ok' | 'not_installed' | 'broken' | 'slow';

/** A host that answers hello later than this is reported as slow to start (it works; the browser waits for it). */
export const SLOW_START_MS = 3000;

export interface TargetReport {
  id: HostTarget['id'];
  label: string;
  state: TargetState;
  /** Whether the browser's user data folder (or the profile folder) exists. */
  browserFound: boolean;
  manifestPath: string;
  registryKey?: string;
  launcherPath?: string;
  runs?: LauncherTarget;
  hello?: Pick<HelloResult, 'hostVersion' | 'protocolVersion' | 'compatible' | 'pid'> & { ms: number };
  /** Why the host cannot be used through this target, a sentence each. */
  problems: string[];
  /** Worth knowing, not in the way (an older host version, the last lines the host wrote to stderr). */
  notes: string[];
}

export interface DoctorReport {
  targets: TargetReport[];
  /** At least one target works end to end. */
  usable: boolean;
}

export interface DoctorDeps {
  fs: InstallFs;
  run: CommandRunner;
  probe: HostProbe;
}

export interface DoctorInput extends LayoutInput {
  /** The host script of the copy of Deputy running doctor, to point out a launcher that runs another copy. */
  currentHostScript?: string;
  currentVersion?: string;
}

/**
 * Checks every target the way the browser will use it: the registration (manifest file, or registry key on Windows),
 * the manifest's fields, the launcher, what the launcher runs, and finally a real hello round trip through it.
 */
export async function diagnose(input: DoctorInput, deps: DoctorDeps): Promise<DoctorReport> {
  const layout = hostLayout(input);
  const probes = new Map<string, Promise<ProbeResult>>();
  const probeOnce = (launcher: string): Promise<ProbeResult> => {
    let result = probes.get(launcher);
    if (!result) {
      result = deps.probe(launcher);
      probes.set(launcher, result);
    }
    return result;
  };
  const targets: TargetReport[] = [];
  // One at a time: the round trips are cached per launcher, and the report reads in the order of the targets.
  for (const target of layout.targets) targets.push(await diagnoseTarget(target, input, deps, probeOnce));
  return { targets, usable: targets.some((target) => target.state === 'ok') };
}

async function diagnoseTarget(
  target: HostTarget,
  input: DoctorInput,
  deps: DoctorDeps,
  probe: HostProbe,
): Promise<TargetReport> {
  const { fs } = deps;
  const { os } = input;
  const report: TargetReport = {
    id: target.id,
    label: target.label,
    state: 'not_installed',
    browserFound: (await fs.probe(target.dataDir)) !== undefined,
    manifestPath: target.manifestPath,
    problems: [],
    notes: [],
  };
  const problem = (text: string): TargetReport => {
    report.problems.push(text);
    report.state = 'broken';
    return report;
  };

  if (target.registryKey !== undefined) {
    report.registryKey = target.registryKey;
    const registered = await readRegistryDefault(deps.run, target.registryKey);
    if (registered === undefined) {
      if ((await fs.readText(target.manifestPath)) === undefined) return report;
      return problem(`the manifest ${target.manifestPath} exists but the registry key ${target.registryKey} is missing`);
    }
    if (registered !== target.manifestPath) report.notes.push(`the registry key points at ${registered}, not where deputy install writes`);
    report.manifestPath = registered;
  }

  const text = await fs.readText(report.manifestPath);
  if (text === undefined) {
    return target.registryKey === undefined ? report : problem(`the registry key points at ${report.manifestPath}, which does not exist`);
  }
  report.state = 'ok';
  const check = checkManifest(text, os);
  for (const text of check.problems) problem(text);
  if (!check.ok) return report;

  const path = pathApi(os);
  const launcher = path.resolve(path.dirname(report.manifestPath), check.manifest.path);
  report.launcherPath = launcher;
  const launcherInfo = await fs.probe(launcher);
  if (launcherInfo === undefined || !launcherInfo.isFile) return problem(`the launcher ${launcher} is missing`);
  if (!launcherInfo.executable) return problem(`the launcher ${launcher} is not executable`);

  const runs = parseLauncher(os, (await fs.readText(launcher)) ?? '');
  if (runs === undefined) {
    report.notes.push('the launcher was not written by deputy install; it was tried as it is');
  } else {
    report.runs = runs;
    const node = await fs.probe(runs.nodePath);
    if (node === undefined) problem(`Node is gone from ${runs.nodePath} (a Node upgrade or nvm uninstall removes old versions)`);
    else if (!node.executable) problem(`${runs.nodePath} is not executable`);
    if ((await fs.probe(runs.hostScript)) === undefined) problem(`the host script ${runs.hostScript} is missing (deleted, or the checkout moved)`);
    if (input.currentHostScript !== undefined && runs.hostScript !== input.currentHostScript) {
      report.notes.push(`the launcher runs ${runs.hostScript}, not this copy of Deputy (${input.currentHostScript})`);
    }
    // Starting a launcher whose Node or script is gone only restates the problem above, less clearly.
    if (report.problems.length > 0) return report;
  }

  const result = await probe(launcher);
  if (!result.ok) {
    report.notes.push(...result.stderr.map((line) => `host stderr: ${line}`));
    if (result.stillStarting === true) {
      report.state = 'slow';
      report.problems.push(`slow to start: ${result.error}`);
      return report;
    }
    return problem(`the hello round trip failed: ${result.error}`);
  }
  const { hello } = result;
  report.hello = { hostVersion: hello.hostVersion, protocolVersion: hello.protocolVersion, compatible: hello.compatible, pid: hello.pid, ms: result.ms };
  if (!hello.compatible || hello.protocolVersion !== PROTOCOL_VERSION) {
    problem(`the host speaks protocol ${hello.protocolVersion}; this Deputy speaks ${PROTOCOL_VERSION}`);
  }
  if (result.exitCode !== 0) {
    report.notes.push(`the host exited with ${result.exitCode === null ? 'no exit code (killed)' : `code ${result.exitCode}`} when its stdin closed; expected 0`);
    report.notes.push(...result.stderr.map((line) => `host stderr: ${line}`));
  }
  if (input.currentVersion !== undefined && hello.hostVersion !== input.currentVersion) {
    report.notes.push(`the registered host is version ${hello.hostVersion}; this deputy is ${input.currentVersion}`);
  }
  return report;
}

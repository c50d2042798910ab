import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { spawnProbe, type HostProbe } from '../install/host-probe';
import { HOST_SCRIPT, hostCommands, packageRoot, type HostCommands } from '../install/host-script';
import { stableNodePath } from '../install/node-path';
import { execRunner, nodeInstallFs, type CommandRunner, type InstallFs } from '../install/system';
import { LoopConfig } from '../../shared/protocol/loop-protocol';
import { claudeStatus, type ClaudeStatus } from '../loop/fixer-preflight';
import { createCommandRunner } from '../loop/run-command';
import { currentPathEnv, type OsName } from '../paths';
import { HOST_VERSION } from '../version';

/** Everything the install, uninstall and doctor commands take from the machine; tests build their own. */
export interface CliEnv {
  os: OsName;
  home: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Absolute path of the Node the launcher will run. */
  nodePath: string;
  /** Absolute path of this copy's built host (it may not exist yet). */
  hostScript: string;
  version: string;
  fs: InstallFs;
  run: CommandRunner;
  probe: HostProbe;
  /** Writes one line of the command's report to stdout. */
  out: (line: string) => void;
  /** The install and doctor commands as this copy's user types them (a checkout's npm scripts by default). */
  commands?: HostCommands;
  /** Whether the Claude Code CLI the fix loop uses is installed and logged in (doctor reports it). */
  claudeStatus?: () => Promise<ClaudeStatus>;
}

export function realCliEnv(moduleUrl: string): CliEnv {
  const { platform: os, home, env } = currentPathEnv();
  const realpath = (path: string): string | undefined => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  };
  const root = packageRoot(moduleUrl);
  return {
    os,
    home,
    env,
    cwd: process.cwd(),
    nodePath: stableNodePath(process.execPath, env.PATH, os, realpath),
    hostScript: join(root, HOST_SCRIPT),
    commands: hostCommands(root),
    version: HOST_VERSION,
    fs: nodeInstallFs,
    run: execRunner,
    probe: spawnProbe({ os, clientVersion: HOST_VERSION, env: process.env }),
    out: (line) => void process.stdout.write(`${line}\n`),
    claudeStatus: () => claudeStatus(LoopConfig.parse({ repo: '.', check: 'true' }).fixer, process.cwd(), createCommandRunner()),
  };
}

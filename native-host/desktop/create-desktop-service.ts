import { join } from 'node:path';
import { MAX_MESSAGE_TO_BROWSER_BYTES } from '../../shared/constants';
import type { ProcessRegistry } from '../host/process-registry';
import type { Logger } from '../log/logger';
import { appPaths, currentPathEnv } from '../paths';
import { DesktopService } from './desktop-service';
import { probeDisplay } from './display-probe';
import { loadDesktopPolicy } from './load-desktop-policy';
import { canConnect } from './socket-connect';
import { DEFAULT_STOP_HOTKEY } from './stop-hotkey';
import { forkDesktopWorker } from './worker-process';

export interface CreateDesktopOptions {
  /** The script that runs `deputy desktop-worker`: the running host's own entry. */
  entry: string;
  log: Logger;
  processes?: ProcessRegistry;
  env?: NodeJS.ProcessEnv;
  listenForHotkey?: boolean;
}

/**
 * Desktop control with the real probe, worker and policy file. The policy lives in Deputy's data folder
 * (desktop-policy.json) unless DEPUTY_DESKTOP_POLICY names another file; DEPUTY_STOP_HOTKEY changes the stop chord.
 */
export function createDesktopService(options: CreateDesktopOptions): DesktopService {
  const env = options.env ?? process.env;
  const policyPath = env.DEPUTY_DESKTOP_POLICY ?? join(appPaths(currentPathEnv()).dataDir, 'desktop-policy.json');
  return new DesktopService({
    probe: () => probeDisplay({ platform: process.platform, env, connect: (target) => canConnect(target) }),
    startWorker: () => forkDesktopWorker(options.entry, options.processes),
    loadPolicy: () => loadDesktopPolicy(policyPath),
    stopHotkey: env.DEPUTY_STOP_HOTKEY ?? DEFAULT_STOP_HOTKEY,
    listenForHotkey: options.listenForHotkey ?? true,
    log: options.log.child('desktop'),
    // base64 grows the JPEG by a third, and the reply's JSON needs a little room around it.
    maxImageBytes: Math.floor((MAX_MESSAGE_TO_BROWSER_BYTES - 64 * 1024) * 0.74),
  });
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import { openPanel, tabIdOf, waitForHost } from './panel-harness';
import { registerHostInProfile, requireBuild } from './register-host';
import { launchTestBrowser } from './test-hosts';

export interface McpBrowser {
  ext: ExtensionBrowser;
  /** The side panel, open on a tab of its own, where the user answers agents' approvals. */
  panel: Page;
  /** Deputy's state folder for this run (host log, shell sessions and rules, mcp.json). */
  state: string;
  /** The environment `deputy mcp` needs to find this browser's host (its bridge socket). */
  clientEnv: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The built extension in Chromium with the built host registered in a fresh profile, the host connected and the side
 * panel open: what `deputy mcp` reaches. `env` goes to the browser and so to the host it starts (DISPLAY, say).
 */
export async function startMcpBrowser(name: string, env: Record<string, string> = {}): Promise<McpBrowser> {
  requireBuild();
  const profile = await mkdtemp(join(tmpdir(), `deputy-${name}-profile-`));
  const state = await mkdtemp(join(tmpdir(), `deputy-${name}-`));
  const clientEnv = { DEPUTY_RUN_DIR: join(state, 'run') };
  await registerHostInProfile(profile);
  const ext = await launchTestBrowser({
    userDataDir: profile,
    env: {
      ...clientEnv,
      DEPUTY_LOG_FILE: join(state, 'host.log'),
      DEPUTY_SHELL_DIR: join(state, 'sessions'),
      DEPUTY_SHELL_RULES: join(state, 'shell-rules.json'),
      DEPUTY_MCP_CONFIG: join(state, 'mcp.json'),
      ...env,
    },
  });
  await ext.worker();
  const helper = await ext.openExtensionPage('extension/sidepanel/index.html');
  await waitForHost(helper);
  const panel = await openPanel(ext, await tabIdOf(helper, helper.url()));
  await helper.close();
  return {
    ext,
    panel,
    state,
    clientEnv,
    close: async () => {
      await ext.close();
      await rm(profile, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import { useE2e } from './e2e-fixture';
import { openPanel, tabIdOf, waitForHost } from './panel-harness';

export interface McpBrowser {
  readonly ext: ExtensionBrowser;
  /** The side panel, open on a tab of its own, where the user answers agents' approvals. */
  readonly panel: Page;
  /** Deputy's state folder for this run (host log, shell sessions and rules, mcp.json). */
  readonly state: string;
  /** The environment `deputy mcp` needs to find this browser's host (its bridge socket). */
  readonly clientEnv: Record<string, string>;
  /** Runs `close` once the browser and host have closed, after the tests (the file's servers, a virtual display). */
  afterClose(close: () => Promise<unknown>): void;
}

/**
 * The shared e2e fixture with the built host registered in a fresh profile, the host connected and the side panel
 * open: what `deputy mcp` reaches. `env` goes to the browser and so to the host it starts (DISPLAY, say); it is read
 * when the browser starts, after the file's beforeAll hooks registered before this call.
 */
export function useMcpBrowser(name: string, env: () => Record<string, string> = () => ({})): McpBrowser {
  const state = mkdtempSync(join(tmpdir(), `deputy-${name}-`));
  const clientEnv = { DEPUTY_RUN_DIR: join(state, 'run') };
  const e2e = useE2e({
    host: true,
    env: () => ({
      ...clientEnv,
      DEPUTY_LOG_FILE: join(state, 'host.log'),
      DEPUTY_SHELL_DIR: join(state, 'sessions'),
      DEPUTY_SHELL_RULES: join(state, 'shell-rules.json'),
      DEPUTY_MCP_CONFIG: join(state, 'mcp.json'),
      ...env(),
    }),
  });
  e2e.afterClose(() => rm(state, { recursive: true, force: true }));
  let panel: Page | undefined;
  beforeAll(async () => {
    const helper = await e2e.ext.openExtensionPage('extension/sidepanel/index.html');
    await waitForHost(helper);
    panel = await openPanel(e2e.ext, await tabIdOf(helper, helper.url()));
    await helper.close();
  });
  return {
    get ext() {
      return e2e.ext;
    },
    get panel() {
      if (panel === undefined) throw new Error('The MCP browser has not started: use it inside a test or hook, after beforeAll');
      return panel;
    },
    state,
    clientEnv,
    afterClose: (close) => e2e.afterClose(close),
  };
}

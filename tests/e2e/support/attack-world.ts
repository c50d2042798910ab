import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import type { AttackSites } from '../../fixtures/attacks/attack-sites';
import { attackSettings, startScenarioSites, type AttackWorld } from '../../fixtures/attacks/attack-harness';
import { startHostState, type HostState } from '../../fixtures/attacks/host-state';
import { useE2e } from './e2e-fixture';
import { waitForHost } from './panel-harness';
import { uiCall } from './ui-call';

/**
 * The attack scenarios' world on the shared e2e fixture: one browser with the built extension for the file, the
 * scripted model on models.test, and the sites every attack runs across (shop.test, evil.test, cdn.test), with the
 * user's settings for a run saved before the tests. With `host`, the built host too, started with the host surfaces'
 * state (tests/fixtures/attacks/host-state.ts; `host.mail` starts the mailbox), through the browser that maps the test
 * names for the host's commands too. Read it inside tests (or hooks), after beforeAll.
 */
export function useAttackWorld(options: { host?: { mail: boolean } } = {}): AttackWorld {
  let host: HostState | undefined;
  // The host's state exists before the browser starts (and so the host, which inherits its folders).
  if (options.host) {
    const { mail } = options.host;
    beforeAll(async () => {
      host = await startHostState({ mail });
    });
  }
  const e2e = useE2e({ model: true, ...(options.host ? { host: true, env: () => need(host).env, executablePath: () => need(host).browser } : {}) });
  let sites: AttackSites | undefined;
  let helper: Page | undefined;
  beforeAll(async () => {
    const started = await startScenarioSites();
    sites = started;
    e2e.afterClose(() => started.close());
    if (host) e2e.afterClose(() => need(host).close());
    helper = await e2e.helper();
    if (host) await waitForHost(helper);
    // The host resolves names as any program does (the *.test mapping is the browser's): with it, the model is at 127.0.0.1.
    await uiCall(helper, 'settings.set', attackSettings(host ? e2e.fake.openaiBaseUrl : e2e.modelBaseUrl));
  });
  function need<T>(value: T | undefined): T {
    if (value === undefined) throw new Error('The attack world has not started: use it inside a test or hook, after beforeAll');
    return value;
  }
  return {
    get ext() {
      return e2e.ext;
    },
    get fake() {
      return e2e.fake;
    },
    get helper() {
      return need(helper);
    },
    get sites() {
      return need(sites);
    },
    get host() {
      return host;
    },
  };
}

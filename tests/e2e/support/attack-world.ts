import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import type { AttackSites } from '../../fixtures/attacks/attack-sites';
import { attackSettings, startScenarioSites, type AttackWorld } from '../../fixtures/attacks/attack-harness';
import { useE2e } from './e2e-fixture';
import { uiCall } from './ui-call';

/**
 * The attack scenarios' world on the shared e2e fixture: one browser with the built extension for the file, the
 * scripted model on models.test, and the sites every attack runs across (shop.test, evil.test, cdn.test), with the
 * user's settings for a run saved before the tests. Read it inside tests (or hooks), after beforeAll.
 */
export function useAttackWorld(): AttackWorld {
  const e2e = useE2e({ model: true });
  let sites: AttackSites | undefined;
  let helper: Page | undefined;
  beforeAll(async () => {
    const started = await startScenarioSites();
    sites = started;
    e2e.afterClose(() => started.close());
    helper = await e2e.helper();
    await uiCall(helper, 'settings.set', attackSettings(e2e.modelBaseUrl));
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The attack world has not started: use it inside a test or hook, after beforeAll');
    return value;
  };
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
  };
}

import type { TaskOptions } from '../../../scripts/task/task-flags';
import { TEST_HOST_RULES } from './test-hosts';

/**
 * The options of an in-process `npm run task` run in the tests: a fresh profile, the system browser, text output,
 * and the tests' host mapping (shop.test and the like reach loopback), with the test's own fields on top.
 */
export function taskOptions(fields: Pick<TaskOptions, 'url' | 'task' | 'provider'> & Partial<TaskOptions>): TaskOptions {
  return {
    flow: 'task',
    facts: {},
    files: [],
    mode: 'act',
    approve: 'none',
    steps: 12,
    screenshots: false,
    headful: false,
    runsDir: 'test-artifacts/runs',
    profile: undefined,
    browser: undefined,
    json: false,
    hostRules: TEST_HOST_RULES,
    ...fields,
  };
}

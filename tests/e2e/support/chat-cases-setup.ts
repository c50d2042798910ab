import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { TaskIo } from '../../../scripts/task/run-task';
import type { TaskOptions } from '../../../scripts/task/task-flags';
import { chatFixtureRoutes } from '../../fixtures/chat/chat-routes';
import { vendorPath } from '../../fixtures/chat/vendor-fixtures';
import { startFakeProvider, type FakeProvider } from '../../fixtures/fake-provider/fake-provider-server';
import { playChat, type ChatStep } from './chat-script';
import { requireBuild } from './register-host';
import { serveRoutes, type StaticServer } from './static-server';
import { taskOptions } from './task-options';

export const CASE_FACTS = { order_number: '1234', email: 'jane@example.org' };
export const CASE_GOAL = 'Get a refund for order 1234, which arrived damaged';

export interface ChatCases {
  /** The chat fixture pages (one shop per vendor, its contact page). */
  readonly server: StaticServer;
  /** The scripted model of the current test. */
  readonly fake: FakeProvider;
  /** What the task printed in the current test (printed when it fails). */
  readonly lines: string[];
  /** A refund case on the Crisp shop, its support side chosen by `query` ("scenario=loop", "silent=1"). */
  options: (query: string, overrides?: Partial<TaskOptions>) => TaskOptions;
  playChat: (steps: ChatStep[]) => void;
  /** The task's output, collected; with `answer`, what the user says when the agent asks. */
  io: (answer?: string) => TaskIo;
  /** What the support side received, in order. */
  received: (page: Page) => Promise<string[]>;
}

/**
 * The set-up the support-chat case files share: the chat fixture pages served once per file, a fresh scripted model
 * per test, the task's output printed when a test fails, and a refund case's options.
 */
export function useChatCases(defaults: { steps: number }): ChatCases {
  let server: StaticServer | undefined;
  let fake: FakeProvider | undefined;
  const lines: string[] = [];
  beforeAll(async () => {
    requireBuild();
    server = await serveRoutes(await chatFixtureRoutes());
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    fake = await startFakeProvider();
    lines.length = 0;
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') process.stderr.write(`${lines.join('\n')}\n`);
    await fake?.close();
  });
  const cases: ChatCases = {
    get server() {
      if (!server) throw new Error('The chat fixture server starts in beforeAll');
      return server;
    },
    get fake() {
      if (!fake) throw new Error('The scripted model starts in beforeEach');
      return fake;
    },
    lines,
    options: (query, overrides = {}) =>
      taskOptions({
        url: `${cases.server.url(vendorPath('crisp'))}?${query}`,
        task: CASE_GOAL,
        flow: 'chat',
        facts: CASE_FACTS,
        provider: { preset: 'custom', baseUrl: cases.fake.openaiBaseUrl, model: 'gpt-4o-mini' },
        steps: defaults.steps,
        ...overrides,
      }),
    playChat: (steps) => playChat(cases.fake, steps, defaults.steps),
    io: (answer) => ({ write: (line) => void lines.push(line), ...(answer === undefined ? {} : { ask: () => Promise.resolve(answer) }) }),
    received: async (page) => (await page.evaluate('window.deputySupportReceived || []')) as string[],
  };
  return cases;
}

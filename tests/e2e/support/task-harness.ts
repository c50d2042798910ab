import type { Page } from 'puppeteer-core';
import { beforeAll } from 'vitest';
import type { ExtensionBrowser } from '../../../scripts/lib/launch-browser';
import type { PendingApproval, TaskFileInput, TaskRecord } from '../../../shared/protocol';
import type { FakeProvider } from '../../fixtures/fake-provider/fake-provider-server';
import { useE2e } from './e2e-fixture';
import { uiCall } from './ui-call';
import { waitUntil } from './wait-until';

/** One browser with the built extension, a scripted model server and an extension page to drive the background. */
export interface TaskBrowser {
  readonly ext: ExtensionBrowser;
  readonly fake: FakeProvider;
  readonly helper: Page;
  /** Where the browser saves downloads (the profile's download folder, a temp folder of the test's). */
  readonly downloads: string;
  /** A tab of its own at the address (its content script answering), in front, with its id. */
  newTab(url?: string): Promise<{ page: Page; tabId: number }>;
  /**
   * Runs `close` once the browser has closed, after the tests: for the file's own servers (closed before the browser,
   * a server waits for the browser's idle keep-alive connections to end).
   */
  afterClose(close: () => Promise<unknown>): void;
}

export interface RunOptions {
  files?: TaskFileInput[];
  /** Answers each approval the task asks for; without it an approval fails the test. */
  approve?: (approval: PendingApproval) => 'approve' | 'reject';
  url?: string;
}

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);

/**
 * The shared e2e fixture for a file of scripted tasks (or the describe block it is called in): Chromium with the
 * extension on a fresh profile whose downloads go to a temp folder, a fake model server on models.test, and the
 * settings a scripted test needs (act mode, a generous step budget).
 */
export function useTaskBrowser(options: { stepBudget?: number } = {}): TaskBrowser {
  const e2e = useE2e({ model: 'act', stepBudget: options.stepBudget ?? 40, downloads: true });
  let helper: Page | undefined;
  beforeAll(async () => {
    helper = await e2e.helper();
  });
  return {
    get ext() {
      return e2e.ext;
    },
    get fake() {
      return e2e.fake;
    },
    get helper() {
      if (helper === undefined) throw new Error('The task browser has not started: use it inside a test or hook, after beforeAll');
      return helper;
    },
    get downloads() {
      return e2e.downloads;
    },
    newTab: (url) => e2e.newTab(url),
    afterClose: (close) => e2e.afterClose(close),
  };
}

/** Starts a task on the tab the way the side panel does, answers its approvals, and waits until it has ended. */
export async function runTask(browser: TaskBrowser, tabId: number, text: string, options: RunOptions = {}): Promise<{ record: TaskRecord; approvals: PendingApproval[] }> {
  const { helper } = browser;
  const started = await uiCall(helper, 'task.start', { tabId, text, mode: 'act', flow: 'task', files: options.files ?? [], ...(options.url ? { url: options.url } : {}) });
  const approvals: PendingApproval[] = [];
  for (;;) {
    // A test that stops the worker may catch a question on its way; the next look asks the new worker.
    const record = await uiCall(helper, 'task.get', { taskId: started.id }).catch((error: unknown) => {
      if (/disconnected/.test(String(error))) return 'again' as const;
      throw error;
    });
    if (record === 'again') {
      await new Promise((resolve) => setTimeout(resolve, 150));
      continue;
    }
    if (!record) throw new Error('The task is gone');
    if (FINISHED.has(record.status)) return { record, approvals };
    const approval = record.approval;
    if (approval && !approvals.some((a) => a.id === approval.id)) {
      if (!options.approve) throw new Error(`The task asks for approval: ${approval.intent} (${approval.reason})`);
      approvals.push(approval);
      await uiCall(helper, 'task.approve', { taskId: started.id, approvalId: approval.id, decision: options.approve(approval) });
    }
    if (process.env.DEBUG_TASK) console.log(record.status, JSON.stringify(results(record).slice(-2)).slice(0, 600));
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Waits until a task has ended, whatever its ending, answering nothing: for tests that read what happened after. */
export function untilTaskEnds(helper: Page, taskId: string, timeoutMs: number): Promise<TaskRecord> {
  return waitUntil(
    'the task to end',
    async () => {
      const record = await uiCall(helper, 'task.get', { taskId });
      return record !== null && FINISHED.has(record.status) ? record : null;
    },
    { timeoutMs },
  );
}

/**
 * Every call of the task with its step text and result, in order, for assertions on what the model was told. The
 * waits a patient scripted model makes while a page is still coming (see playSteps) are left out.
 */
export function results(record: TaskRecord): { name: string; text: string; ok: boolean | undefined; content: string; evidence: string[] }[] {
  return (record.agent?.steps ?? []).flatMap((step) =>
    step.calls.filter((call) => call.name !== 'wait').map((call) => ({
      name: call.name,
      text: call.stepText ?? call.name,
      ok: call.result?.ok,
      content: call.result?.content ?? '',
      evidence: call.result?.evidence ?? [],
    })),
  );
}

/**
 * Whether Deputy's debugger is attached to the tab now. The browser's target list counts puppeteer's own sessions as
 * attached too, so this asks the way only the extension's own attachment answers: a command sent through it.
 */
export function debuggerHeld(helper: Page, tabId: number): Promise<boolean> {
  return helper.evaluate(async (id) => {
    try {
      await chrome.debugger.sendCommand({ tabId: id }, 'Runtime.evaluate', { expression: '1' });
      return true;
    } catch {
      return false;
    }
  }, tabId);
}

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApprovalDecision, TaskRecord } from '../../shared/protocol';
import type { Page } from 'puppeteer-core';
import { launchWithExtension, type ExtensionBrowser } from '../lib/launch-browser';
import { ControlPage } from './control-page';
import { createStepPrinter } from './step-printer';
import type { TaskOptions } from './task-flags';

export interface TaskIo {
  write(line: string): void;
  /** Asks the person at the terminal; absent when nobody is there (no TTY). */
  ask?: (question: string) => Promise<string>;
}

/** Points where a caller (the end-to-end tests) may look at the browser while the task runs and before it closes. */
export interface TaskHooks {
  onLaunched?(browser: ExtensionBrowser): Promise<void> | void;
  beforeClose?(target: Page, record: TaskRecord): Promise<void> | void;
}

export interface TaskRun {
  exitCode: number;
  record: TaskRecord;
  runDir: string;
}

const FINISHED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);

/**
 * Runs one task headlessly through the same path the side panel uses: Chromium with the built extension, the target
 * page in a tab, and the background driven over the "ui" port from the extension's own panel page. Each step is
 * streamed as it happens; the redacted trace and the final task record go to runs/<time>/.
 */
export async function runTask(options: TaskOptions, io: TaskIo, hooks: TaskHooks = {}): Promise<TaskRun> {
  if (!existsSync('dist/manifest.json')) throw new Error('The extension is not built: run `npm run build` first.');
  const ext = await launchWithExtension({ headless: !options.headful });
  try {
    await ext.worker();
    await hooks.onLaunched?.(ext);
    const target = await ext.browser.newPage();
    await target.goto(options.url, { waitUntil: 'load' });
    const panel = await ext.openExtensionPage('extension/sidepanel/index.html');
    const tabs = await panel.evaluate(() => chrome.tabs.query({}));
    const tabId = tabs.find((tab) => tab.url === target.url())?.id;
    if (tabId === undefined) throw new Error(`No tab shows ${options.url}`);
    await panel.goto(panel.url().replace(/\?.*$/, '') + `?tab=${tabId}`);
    const control = await ControlPage.open(panel);
    await target.bringToFront();

    await control.call('settings.set', {
      provider: options.provider,
      defaultMode: options.mode,
      screenshots: options.screenshots,
      ...(options.steps === undefined ? {} : { stepBudget: options.steps }),
    });
    const printer = createStepPrinter((line) => io.write(line));
    const answered = new Set<string>();
    let latest: TaskRecord | undefined;
    let taskId = '';
    let settle: (record: TaskRecord) => void = () => undefined;
    const finished = new Promise<TaskRecord>((resolve) => (settle = resolve));

    const onRecord = (record: TaskRecord): void => {
      if (record.id !== taskId || (latest && record.updatedAt < latest.updatedAt)) return;
      latest = record;
      printer.update(record);
      void respond(record);
      if (FINISHED.has(record.status)) settle(record);
    };
    const respond = async (record: TaskRecord): Promise<void> => {
      const approval = record.approval;
      if (approval && !answered.has(approval.id)) {
        answered.add(approval.id);
        const decision = await decide(options, io, `Approve "${approval.intent}"? (${approval.reason})`);
        io.write(`  ${decision === 'reject' ? 'rejected' : 'approved'}: ${approval.intent}`);
        await control.call('task.approve', { taskId, approvalId: approval.id, decision }).catch((error: unknown) => io.write(`  (approval not taken: ${String(error)})`));
      }
      const question = record.question;
      if (question && !answered.has(question.id)) {
        answered.add(question.id);
        const answer = io.ask ? await io.ask(`The agent asks: ${question.text}\n> `) : 'Nobody is at the keyboard: decide with what you know, or finish and say what is missing.';
        await control.call('task.answer', { taskId, questionId: question.id, answer }).catch((error: unknown) => io.write(`  (answer not taken: ${String(error)})`));
      }
    };
    control.onTask(onRecord);

    const started = await control.call('task.start', {
      tabId,
      text: options.task,
      mode: options.mode,
      flow: options.flow,
      ...(options.flow === 'chat' ? { facts: options.facts } : {}),
    });
    taskId = started.id;
    io.write(`Task ${taskId} on ${started.site} (${options.mode === 'act' ? 'act without asking; risky steps still stop' : 'ask before acting'})`);
    // Events carry every change; a slow poll covers the moments the worker restarts between them.
    const poll = setInterval(() => {
      void control.call('task.get', { taskId }).then((record) => record && onRecord(record), () => undefined);
    }, 2000);
    const record = await finished.finally(() => clearInterval(poll));

    const runDir = join(options.runsDir, new Date().toISOString().replace(/[:.]/g, '-'));
    await mkdir(runDir, { recursive: true });
    const trace = await control.call('task.trace', { taskId });
    await writeFile(join(runDir, 'trace.jsonl'), trace.jsonl);
    await writeFile(join(runDir, 'task.json'), `${JSON.stringify(record, null, 2)}\n`);
    const outcome = record.agent?.outcome;
    const success = record.status === 'completed' && outcome?.success === true;
    io.write(success ? `Done: ${outcome.summary}` : `Not done (${record.status}): ${record.agent?.endReason ?? record.error?.message ?? outcome?.summary ?? 'no reason given'}`);
    if (record.chat) {
      io.write(`Case outcome: ${record.chat.outcome}. Transcript (${record.chat.transcript.length} messages):`);
      for (const message of record.chat.transcript) io.write(`  ${message.author === 'us' ? 'Deputy' : message.author === 'them' ? 'Support' : 'Notice'}: ${message.text}`);
    }
    const usage = record.agent?.usage;
    if (usage) io.write(`Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out; cost: ${usage.costUsd === null ? 'unknown' : `$${usage.costUsd.toFixed(4)}`}`);
    io.write(`Trace: ${join(runDir, 'trace.jsonl')} (${trace.records} records)`);
    await hooks.beforeClose?.(target, record);
    return { exitCode: success ? 0 : 1, record, runDir };
  } finally {
    await ext.close();
  }
}

async function decide(options: TaskOptions, io: TaskIo, question: string): Promise<ApprovalDecision> {
  if (options.approve === 'all') return 'approve';
  if (options.approve === 'none') return 'reject';
  if (!io.ask) {
    io.write('  nobody at the terminal to approve: rejected (run with --approve all to approve risky steps unattended)');
    return 'reject';
  }
  const answer = (await io.ask(`${question} [y]es / [n]o / [s]ite: always allow this site > `)).trim().toLowerCase();
  return answer.startsWith('s') ? 'approve_site' : answer.startsWith('y') ? 'approve' : 'reject';
}

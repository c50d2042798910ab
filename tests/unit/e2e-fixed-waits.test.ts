import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedWaits, scriptFiles } from '../support/fixed-wait-scan';

const ROOT = resolve(import.meta.dirname, '..', '..');
const E2E = join(ROOT, 'tests', 'e2e');

/**
 * The e2e files that still hold a fixed-time wait, how many, and why. A file not listed may hold none; a listed file
 * may hold no more than its number (a new timer fails, and one taken out asks for the number to come down). Moving an
 * entry's loop onto waitUntil (tests/e2e/support/wait-until.ts) takes it off this list.
 */
const ALLOWED: Record<string, { count: number; reason: string }> = {
  'support/wait-until.ts': { count: 4, reason: 'waitUntil\'s poll interval and waitForQuietDom\'s quiet window and cap: the one place the suite\'s state waits keep time' },
  'host-harness.ts': { count: 2, reason: 'a cap, not a wait: the reply wait wakes on each frame the host writes and the exit wait races the exit, with a timer only as the limit' },
  'host-robustness.test.ts': { count: 3, reason: 'paces writes to the host on purpose so that frames arrive split across reads (the input under test), and gives a random stream a bounded chance to end the host' },
  'mcp-safety.test.ts': { count: 1, reason: 'proves an absence: nothing left behind by a closed agent runs in the 1.5 s it is given; there is no state to wait for' },
  'safety-egress-matrix.test.ts': { count: 1, reason: 'proves an absence: a late request of the page, had it been let out, would arrive within the window' },
  'perception-arrival-scroll.test.ts': { count: 1, reason: 'the generated page\'s own script: a control whose hover effect lasts a set time (an image loading) is the input under test, not a wait of the test' },
  'perception-suggestions.test.ts': { count: 2, reason: 'the generated page\'s own script: suggestions that show a set time after typing (a search that answers late) are the input under test, not a wait of the test' },
  'safety-late-windows.test.ts': { count: 8, reason: 'the attack pages\' own scripts: a page (or its frame, or its worker) that opens a window some time after the action is the input under test, not a wait of the test' },
  'agent-restart.test.ts': { count: 1, reason: 'the poll interval of a hand-written wait for a state (its own deadline); to move onto waitUntil (issue 32)' },
  'mcp-server.test.ts': { count: 1, reason: 'the poll interval of a hand-written wait for the next line, with a deadline; to move onto waitUntil (issue 32)' },
  'mcp-tasks.test.ts': { count: 1, reason: 'the poll interval of a hand-written wait for a task record, with a deadline; to move onto waitUntil (issue 32)' },
  'sidepanel-a11y.test.ts': { count: 1, reason: 'the poll interval of a wait for the model to have the request; to move onto waitUntil (issue 32)' },
  'sidepanel-ask-first.test.ts': { count: 1, reason: 'the poll interval of a bounded wait for the download; to move onto waitUntil (issue 32)' },
  'sidepanel-history.test.ts': { count: 1, reason: 'the poll interval of a wait for the download; to move onto waitUntil (issue 32)' },
  'sidepanel-notify.test.ts': { count: 1, reason: 'the poll interval of a bounded wait for a state; to move onto waitUntil (issue 32)' },
  'sidepanel-pause.test.ts': { count: 1, reason: 'the poll interval of a bounded wait for a state; to move onto waitUntil (issue 32)' },
  'sidepanel-task.test.ts': { count: 1, reason: 'the poll interval of a wait for the model to have the request; to move onto waitUntil (issue 32)' },
  'web-page-states.test.ts': { count: 1, reason: 'the poll interval of a wait for a task\'s end; to move onto waitUntil (issue 32)' },
  'shell-host.test.ts': { count: 1, reason: 'the poll interval of its hand-written until (with a deadline); moved onto waitUntil this session but not verified (the file fails on main under load), so left as it is' },
  'shell-ssh.test.ts': { count: 1, reason: 'drops the connections 500 ms after the command is shown starting; waiting instead for the remote process (pgrep) failed under load this session, so the timer stays until the SSH target reports the command running' },
  'support/dovecot.ts': { count: 1, reason: 'the poll interval of a wait for Dovecot\'s greeting, with a deadline; to move onto waitUntil (issue 32)' },
  'support/open-tab.ts': { count: 2, reason: 'the poll interval of bounded waits for the tab to load and its content script to answer; to move onto waitUntil (issue 32)' },
  'support/task-harness.ts': { count: 2, reason: 'the poll interval of the wait for a task record to change; to move onto waitUntil (issue 32)' },
};


describe('the scan for fixed-time waits', () => {
  it('finds a timer that waits, in each of its forms, and not a comment or a cleared cap', () => {
    expect(fixedWaits('await new Promise((resolve) => setTimeout(resolve, 500));')).toHaveLength(1);
    expect(fixedWaits('setTimeout(() => press(), 700);')).toHaveLength(1);
    expect(fixedWaits('await page.waitForTimeout(1000);')).toHaveLength(1);
    expect(fixedWaits('await sleep(200);')).toHaveLength(1);
    expect(fixedWaits("import { setTimeout as delay } from 'node:timers/promises';")).toHaveLength(1);
    expect(fixedWaits("const { setTimeout } = await import('timers/promises');")).toHaveLength(1);
    expect(fixedWaits('// setTimeout(resolve, 50) was here\n * await sleep(1) in a doc comment')).toEqual([]);
    expect(fixedWaits('clearTimeout(timer);\nlet timer: ReturnType<typeof setTimeout>;\nawait waitUntil("x", () => done);\nrun("sleep 4; touch x")')).toEqual([]);
    expect(fixedWaits('a();\nawait sleep(5);').map((hit) => hit.line)).toEqual([2]);
  });
});

describe('the e2e suite', () => {
  const found = scriptFiles(E2E).map((file) => ({ file: relative(E2E, file), waits: fixedWaits(readFileSync(file, 'utf8')) }));

  it('waits for states, not for time, outside the written exceptions', () => {
    expect(found.length).toBeGreaterThan(50);
    const unexplained = found
      .filter(({ file, waits }) => waits.length > (ALLOWED[file]?.count ?? 0))
      .map(({ file, waits }) => `${file}: ${waits.map((hit) => `${hit.line}: ${hit.text}`).join(' | ')}`);
    expect(unexplained, 'wait for the state the test needs (tests/e2e/support/wait-until.ts waitUntil), or add the file to ALLOWED with the reason').toEqual([]);
  });

  it('keeps no exception it no longer needs', () => {
    const stale = Object.entries(ALLOWED)
      .filter(([file, { count }]) => (found.find((entry) => entry.file === file)?.waits.length ?? 0) < count)
      .map(([file]) => file);
    expect(stale, 'lower the count in ALLOWED (or remove the entry) now that the file waits for fewer fixed times').toEqual([]);
  });
});

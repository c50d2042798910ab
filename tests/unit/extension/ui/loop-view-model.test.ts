import { describe, expect, it } from 'vitest';
import type { LoopEvent, LoopSnapshot } from '../../../../shared/protocol/loop-protocol';
import { fixerErrorText, formatClock, mergeEvents, reduceLoop, statusLine, waitingLine } from '../../../../extension/ui/loop-view-model';

const ID = 'loop-1';
let clock = 1_000;
const at = (): number => (clock += 1000);
const ev = (event: Record<string, unknown> & { type: LoopEvent['type'] }, iteration = 1): LoopEvent =>
  ({ loopId: ID, at: at(), iteration, ...event }) as LoopEvent;

const failure = (id: string) => ({ id, message: `${id} returned the wrong value`, severity: 'failure' as const });

/** The events of a loop that passes after two fixes with a deploy wait, as the host sends them. */
function twoFixes(): LoopEvent[] {
  clock = 1_000;
  return [
    ev({ type: 'loop.started', repo: '/srv/app', branch: 'main', resumed: false, step: 'check' }),
    ev({ type: 'step.started', step: 'check' }),
    ev({ type: 'check.result', passed: false, format: 'tap', failures: [failure('add'), failure('multiply')] }),
    ev({ type: 'step.finished', step: 'check', ok: true, detail: '2 failure(s)' }),
    ev({ type: 'step.started', step: 'fix' }),
    ev({ type: 'fixer.progress', action: 'Edit src/math.mjs' }),
    ev({ type: 'fixer.finished', costUsd: 0.12, isError: false, summary: 'Return the sum from add', turns: 3 }),
    ev({ type: 'step.finished', step: 'fix', ok: true }),
    ev({ type: 'step.started', step: 'validate' }),
    ev({ type: 'step.finished', step: 'validate', ok: true, detail: '1 file(s), +1 -1' }),
    ev({ type: 'commit.created', commit: 'aaaaaaaaaaaa1111', summary: 'Return the sum from add' }),
    ev({ type: 'push.verified', commit: 'aaaaaaaaaaaa1111', rebased: false }),
    ev({ type: 'step.started', step: 'deploy' }),
    ev({ type: 'step.finished', step: 'deploy', ok: true, detail: 'ready after 12 s' }),
    ev({ type: 'step.started', step: 'check' }, 2),
    ev({ type: 'check.result', passed: false, format: 'tap', failures: [failure('multiply')] }, 2),
    ev({ type: 'fixer.progress', action: 'Edit src/math.mjs' }, 2),
    ev({ type: 'fixer.finished', costUsd: 0.2, isError: false, summary: 'Return the product from multiply' }, 2),
    ev({ type: 'fix.rejected', reasons: ['deleted a test'] }, 2),
    ev({ type: 'step.started', step: 'check' }, 3),
    ev({ type: 'check.result', passed: true, format: 'tap', failures: [] }, 3),
    ev({ type: 'loop.finished', outcome: 'passed', reason: 'The check passes after 1 pushed fix(es)', costUsd: 0.32, reportPath: '/state/report.md' }, 3),
  ];
}

describe('fix loop view model', () => {
  it('folds the events into one entry per iteration with failures, fix, diff, push, deploy and cost', () => {
    const view = reduceLoop(ID, twoFixes());
    expect(view).toMatchObject({ repo: '/srv/app', branch: 'main', running: false, outcome: 'passed', costUsd: 0.32, reportPath: '/state/report.md', iteration: 3 });
    expect(view.iterations.map((entry) => entry.iteration)).toEqual([1, 2, 3]);
    expect(view.iterations[0]).toMatchObject({
      checkPassed: false,
      fixSummary: 'Return the sum from add',
      fixerCostUsd: 0.12,
      turns: 3,
      diff: '1 file(s), +1 -1',
      commit: 'aaaaaaaaaaaa1111',
      pushed: true,
      deploy: 'ready after 12 s',
    });
    expect(view.iterations[0]?.failures.map((item) => item.id)).toEqual(['add', 'multiply']);
    expect(view.iterations[1]).toMatchObject({ rejected: ['deleted a test'], fixSummary: 'Return the product from multiply' });
    expect(view.iterations[1]?.pushed).toBeUndefined();
    expect(view.iterations[2]).toMatchObject({ checkPassed: true, failures: [] });
    expect(view.action).toBeUndefined();
  });

  it('shows the fixer action of the current step only, and the running cost from the events', () => {
    const events = twoFixes().slice(0, 6);
    const view = reduceLoop(ID, events);
    expect(view).toMatchObject({ running: true, step: 'fix', action: 'Edit src/math.mjs', costUsd: 0 });
    expect(statusLine(view, (view.startedAt ?? 0) + 65_000)).toBe('Iteration 1 · fix · 1:05 · $0.00');
    const next = reduceLoop(ID, twoFixes().slice(0, 9));
    expect(next).toMatchObject({ step: 'validate', costUsd: 0.12 });
    expect(next.action).toBeUndefined();
  });

  it('starts from the host snapshot when the panel opens mid-loop, and ignores other loops', () => {
    const snapshot: LoopSnapshot = { loopId: ID, repo: '/srv/app', running: true, iteration: 2, step: 'fix', costUsd: 0.5, startedAt: 10, stateFile: '/state/state.json' };
    const other = { ...ev({ type: 'check.result', passed: false, format: 'tap', failures: [failure('x')] }, 7), loopId: 'loop-2' };
    const view = reduceLoop(ID, [other], snapshot);
    expect(view).toMatchObject({ running: true, iteration: 2, step: 'fix', costUsd: 0.5, startedAt: 10, stateFile: '/state/state.json' });
    expect(view.iterations).toEqual([]);
  });

  it('a stopped loop: outcome stopped, and the interrupted step is not listed as failed; a resume runs again', () => {
    clock = 1_000;
    const events = [
      ev({ type: 'loop.started', repo: '/srv/app', branch: 'main', resumed: false, step: 'check' }),
      ev({ type: 'check.result', passed: false, format: 'tap', failures: [failure('add')] }),
      ev({ type: 'step.started', step: 'fix' }),
      ev({ type: 'step.finished', step: 'fix', ok: false, detail: 'aborted' }),
      ev({ type: 'loop.finished', outcome: 'stopped', reason: 'Stopped by the user during the fix step', costUsd: 0 }),
    ];
    const stopped = reduceLoop(ID, events);
    expect(stopped).toMatchObject({ running: false, outcome: 'stopped', reason: 'Stopped by the user during the fix step' });
    expect(stopped.iterations[0]?.failedStep).toBeUndefined();
    const resumed = reduceLoop(ID, [...events, ev({ type: 'loop.started', repo: '/srv/app', branch: 'main', resumed: true, step: 'fix' })]);
    expect(resumed.running).toBe(true);
    expect(resumed.outcome).toBeUndefined();
  });

  it('a failed step stays on its iteration with the host reason', () => {
    clock = 1_000;
    const view = reduceLoop(ID, [
      ev({ type: 'step.finished', step: 'push', ok: false, detail: 'git push to origin/main failed: rejected' }),
      ev({ type: 'loop.finished', outcome: 'failed', reason: 'The push step failed', costUsd: 0.1 }),
    ]);
    expect(view.iterations[0]?.failedStep).toEqual({ step: 'push', detail: 'git push to origin/main failed: rejected' });
    expect(view.costUsd).toBe(0.1);
  });

  it('a fixer that could not sign in: the error kind on its iteration, and needs_human as the outcome', () => {
    clock = 1_000;
    const view = reduceLoop(ID, [
      ev({ type: 'fixer.finished', costUsd: 0, isError: true, errorKind: 'auth', summary: 'Not logged in · Please run /login' }),
      ev({ type: 'loop.finished', outcome: 'needs_human', reason: 'Needs a human: Claude Code cannot work: Not logged in · Please run /login', costUsd: 0 }),
    ]);
    expect(view.iterations[0]).toMatchObject({ fixerError: true, fixerErrorKind: 'auth' });
    expect(fixerErrorText(view.iterations[0]?.fixerErrorKind)).toBe('Claude Code is not signed in or its key was refused; its changes were rolled back');
    expect(view.outcome).toBe('needs_human');
  });

  it('merges the logged events with live ones, each once, in time order', () => {
    const all = twoFixes();
    const logged = all.slice(0, 10);
    const live = all.slice(8);
    expect(mergeEvents(logged, live)).toEqual(all);
    expect(mergeEvents([], live)).toEqual(live);
  });

  it('formats elapsed time', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(61_500)).toBe('1:01');
    expect(formatClock(3_725_000)).toBe('1:02:05');
  });

  it('keeps the judge verdict of each iteration: counts by severity and the report', () => {
    clock = 1_000;
    const verdict = (high: number) => ({ kind: 'pptx' as const, output: '/out/deck.pptx', summary: high ? `FAIL: 0 critical, ${high} high, 0 medium` : 'PASS: matches the template', counts: { critical: 0, high, medium: 1 }, hollow: false, reportPath: `/state/runs/a/iteration-${high ? 1 : 2}/report.html` });
    const findings = [{ id: 'slide 2, shape "Title" [format.title-size]', message: 'The title is too big', severity: 'high' as const }];
    const view = reduceLoop(ID, [
      ev({ type: 'loop.started', repo: '/srv/decks', branch: 'main', resumed: false, step: 'trigger' }),
      ev({ type: 'check.result', passed: false, format: 'pptx', failures: findings, document: verdict(4) }),
      ev({ type: 'check.result', passed: true, format: 'pptx', failures: [], document: verdict(0) }, 2),
    ]);
    expect(view.iterations.map((entry) => [entry.iteration, entry.document?.counts.high, entry.document?.reportPath, entry.failures.length])).toEqual([
      [1, 4, '/state/runs/a/iteration-1/report.html', 1],
      [2, 0, '/state/runs/a/iteration-2/report.html', 0],
    ]);
  });
  it('shows the trigger, a wait that ticks on, what the mailbox passed over and what arrived; a wait that ended says nothing came', () => {
    clock = 1_000;
    const wait = { source: 'mail', where: 'alice@imap.example.com:993/INBOX', rules: 'from *@svc.test with "report" in the subject', timeoutSeconds: 900 };
    const started = [
      ev({ type: 'loop.started', repo: '/srv/decks', branch: 'main', resumed: false, step: 'trigger' }),
      ev({ type: 'trigger.sent', kind: 'http', target: 'POST https://svc.test/run (form, 2 field(s))', result: 'HTTP 202 Accepted', attempts: 1 }),
      ev({ type: 'step.started', step: 'output' }),
      ev({ type: 'output.waiting', ...wait, waitedSeconds: 0 }),
      ev({ type: 'output.mail', mail: { type: 'connected', mailbox: 'alice@imap.example.com:993', security: 'TLS', push: true } }),
      ev({ type: 'output.mail', mail: { type: 'ignored', id: '7', from: 'reports@svc.test', subject: 'Market map report (last week)', why: 'it arrived before the job was started' } }),
      ev({ type: 'output.mail', mail: { type: 'disconnected', mailbox: 'alice@imap.example.com:993', reason: 'the server closed the connection', attempt: 1, retryInSeconds: 2 } }),
      ev({ type: 'output.mail', mail: { type: 'saved', name: 'deck.pptx', size: 48_200, attachmentType: 'pptx', path: '/runs/deck.pptx' } }),
      ev({ type: 'output.mail', mail: { type: 'saved', name: 'evil.pptx', size: 48_200, attachmentType: 'pptx', path: '/runs/evil.pptx', mailName: '../../evil.pptx' } }),
    ];
    const waiting = reduceLoop(ID, started);
    const [entry] = waiting.iterations;
    expect(entry?.trigger).toBe('Triggered: POST https://svc.test/run (form, 2 field(s)): HTTP 202 Accepted');
    expect(entry?.mail).toEqual([
      'Passed over "Market map report (last week)" from reports@svc.test: it arrived before the job was started',
      'Connection lost (the server closed the connection); reconnecting in 2 s (attempt 1)',
      'Saved evil.pptx (48 KB) to /runs/evil.pptx (the mail named it "../../evil.pptx")',
    ]);
    // The panel ticks the time on from the event's own clock, between the host's 30 s beats.
    const since = started[3]?.at ?? 0;
    expect(entry?.waiting && waitingLine(entry.waiting, since + 42_000)).toBe(
      'Waiting for mail in alice@imap.example.com:993/INBOX from *@svc.test with "report" in the subject: 0:42 of 15:00',
    );
    const beat = ev({ type: 'output.waiting', ...wait, waitedSeconds: 30 });
    const later = reduceLoop(ID, [...started, beat]).iterations[0];
    expect(later?.waiting && waitingLine(later.waiting, beat.at + 5_000)).toMatch(/: 0:35 of 15:00$/);

    const received = reduceLoop(ID, [
      ...started,
      ev({ type: 'output.received', source: 'mail', file: '/state/runs/a/iteration-1/deck.pptx', name: 'deck.pptx', size: 48_200, from: 'Deck service <reports@svc.test>', subject: 'Market map report #1', waitedSeconds: 75 }),
    ]).iterations[0];
    expect(received?.waiting).toBeUndefined();
    expect(received?.received).toBe('Received deck.pptx (48 KB) in the mail "Market map report #1" from Deck service <reports@svc.test> after 75 s');

    const none = reduceLoop(ID, [
      ...started,
      ev({ type: 'output.none', source: 'mail', where: wait.where, waitedSeconds: 900, reason: 'no mail arrived within 900 s', check: 'that the job ran' }),
      ev({ type: 'step.finished', step: 'output', ok: false, detail: 'No mail came' }),
    ]).iterations[0];
    expect(none?.waiting).toBeUndefined();
    expect(none?.nothing).toBe('Nothing usable came (15:00 waited): no mail arrived within 900 s. Check that the job ran');
    // A loop that ends (stopped mid-wait) shows no wait still going on.
    const stopped = reduceLoop(ID, [...started, ev({ type: 'loop.finished', outcome: 'stopped', reason: 'Stopped', costUsd: 0 })]).iterations[0];
    expect(stopped?.waiting).toBeUndefined();
  });
});

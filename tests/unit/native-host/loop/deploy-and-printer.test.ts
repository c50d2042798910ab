import { describe, expect, it } from 'vitest';
import { namesCommit, waitForDeploy } from '../../../../native-host/loop/deploy-wait';
import { createPrinter } from '../../../../native-host/loop/loop-printer';
import { withRetries } from '../../../../native-host/loop/with-retries';
import { LoopConfig, type LoopEvent } from '../../../../shared/protocol/loop-protocol';

/** A clock that moves only when the code under test sleeps. */
function fakeClock() {
  let now = 0;
  const pauses: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => {
      pauses.push(ms);
      now += ms;
      return Promise.resolve();
    },
    pauses,
  };
}

const answers = (...statuses: Array<number | 'refused'>): typeof fetch => {
  let index = 0;
  return (() => {
    const status = statuses[Math.min(index++, statuses.length - 1)];
    if (status === 'refused') return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    return Promise.resolve(new Response(null, { status }));
  });
};

describe('waitForDeploy', () => {
  const health = { healthUrl: 'http://127.0.0.1:8080/health', timeoutSeconds: 600, backoffStartSeconds: 15, backoffMaxSeconds: 60, waitSeconds: 30, expectCommit: false };
  const COMMIT = '3f2a9c1d0b7e4f5a6b8c9d0e1f2a3b4c5d6e7f80';

  it('polls with a pause growing from 15 s to 60 s until the service answers 2xx', async () => {
    const clock = fakeClock();
    const tried: string[] = [];
    const ms = await waitForDeploy(health, COMMIT, { ...clock, fetch: answers('refused', 503, 503, 503, 200), onAttempt: (attempt, status) => tried.push(`${attempt}:${status}`) });
    expect(clock.pauses).toEqual([15_000, 30_000, 60_000, 60_000, 60_000]);
    expect(tried).toEqual(['1:unreachable (ECONNREFUSED)', '2:HTTP 503', '3:HTTP 503', '4:HTTP 503']);
    expect(ms).toBe(225_000);
  });

  it('gives up at the limit with what it saw and what to check', async () => {
    const clock = fakeClock();
    await expect(waitForDeploy({ ...health, timeoutSeconds: 100 }, COMMIT, { ...clock, fetch: answers('refused') })).rejects.toThrow(
      'The deploy did not become ready: http://127.0.0.1:8080/health was unreachable (ECONNREFUSED) after 100 s. Check that the service is running and the URL is right',
    );
    expect(clock.pauses).toEqual([15_000, 30_000, 55_000]);
  });

  it('waits a blind delay without a health URL: 30 s by default, as configured otherwise', async () => {
    const clock = fakeClock();
    expect(await waitForDeploy(LoopConfig.parse({ repo: '/r', check: 'x' }).deploy, COMMIT, { ...clock, fetch: answers(500) })).toBe(30_000);
    expect(await waitForDeploy({ ...health, healthUrl: undefined, waitSeconds: 90 }, COMMIT, { ...clock, fetch: answers(500) })).toBe(90_000);
    expect(LoopConfig.parse({ repo: '/r', check: 'x', deploy: { healthUrl: 'http://a.test/h' } }).deploy.timeoutSeconds).toBe(600);
  });

  it('with expectCommit, waits past the old version that still answers 200 until the pushed commit answers', async () => {
    const clock = fakeClock();
    const bodies = ['{"status":"ok","commit":"0000000aaaa"}', '{"status":"ok","commit":"0000000aaaa"}', `{"status":"ok","version":"${COMMIT.slice(0, 7)}"}`];
    let index = 0;
    const fetchFn = (() => Promise.resolve(new Response(bodies[Math.min(index++, bodies.length - 1)], { status: 200 }))) as typeof fetch;
    const tried: string[] = [];
    await waitForDeploy({ ...health, expectCommit: true }, COMMIT, { ...clock, fetch: fetchFn, onAttempt: (attempt, status) => tried.push(status) });
    expect(tried).toEqual([`HTTP 200 but does not name the pushed commit ${COMMIT.slice(0, 10)} yet`, `HTTP 200 but does not name the pushed commit ${COMMIT.slice(0, 10)} yet`]);
    expect(namesCommit('deployed 3f2a9c1 at noon', COMMIT)).toBe(true);
    expect(namesCommit('deployed 3f2a9c2', COMMIT)).toBe(false);
    const text = (() => Promise.resolve(new Response('version 1.4.2', { status: 200 }))) as typeof fetch;
    await expect(waitForDeploy({ ...health, expectText: 'version 1.5', timeoutSeconds: 20 }, COMMIT, { ...fakeClock(), fetch: text })).rejects.toThrow('does not contain "version 1.5" yet after 20 s');
  });
});

describe('withRetries', () => {
  it('retries a failing external step with a doubling pause, then gives up with its error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const flaky = () => (++calls < 3 ? Promise.reject(new Error(`down ${calls}`)) : Promise.resolve('up'));
    expect(await withRetries({ attempts: 3, backoffSeconds: 2 }, clock, flaky)).toBe('up');
    expect(clock.pauses).toEqual([2000, 4000]);
    calls = 0;
    await expect(withRetries({ attempts: 2, backoffSeconds: 1 }, clock, flaky)).rejects.toThrow('down 2');
  });
});

describe('loop printer', () => {
  const base = { loopId: 'l1', at: 0, iteration: 1 };
  const events: LoopEvent[] = [
    { ...base, type: 'loop.started', repo: '/srv/app', branch: 'main', resumed: false, step: 'check' },
    { ...base, type: 'step.started', step: 'fix' },
    { ...base, type: 'fixer.progress', action: 'Edit src/cart.ts' },
    { ...base, type: 'fixer.finished', costUsd: 0.25, isError: false, summary: 'Sum in cents', turns: 6 },
    { ...base, type: 'fix.rejected', reasons: ['changed .env is a protected path'] },
    { ...base, type: 'loop.finished', outcome: 'passed', reason: 'The check passes', costUsd: 0.25, reportPath: '/state/report.md' },
  ];

  it('prints one JSON event per line with --json', () => {
    let out = '';
    const printer = createPrinter('json', (text) => (out += text));
    for (const event of events) printer.print(event);
    const lines = out.trim().split('\n').map((line) => JSON.parse(line) as LoopEvent);
    expect(lines).toEqual(events);
  });

  it('prints readable lines when piped, with the steps and the fixer actions', () => {
    let out = '';
    const printer = createPrinter('plain', (text) => (out += text));
    for (const event of events) printer.print(event);
    printer.close();
    expect(out).toBe(
      [
        'Starting the fix loop on /srv/app (branch main) at check',
        '[1] fix',
        '[1]   Edit src/cart.ts',
        '[1] fixer finished ($0.25, 6 turns): Sum in cents',
        '[1] fix rejected and rolled back: changed .env is a protected path',
        'Loop passed: The check passes (cost $0.25)',
        'Report: /state/report.md',
        '',
      ].join('\n'),
    );
  });

  it('keeps a status line on a terminal: iteration, step, elapsed, cost and the current action', () => {
    let out = '';
    let now = 0;
    const printer = createPrinter('tty', (text) => (out += text), () => now);
    printer.print(events[1] as LoopEvent);
    now = 65_000;
    printer.print(events[2] as LoopEvent);
    printer.close();
    expect(out).toContain('\r\u001b[2Kiteration 1 · fix · 1:05 · $0.00 · Edit src/cart.ts');
  });
  it('prints the trigger, the wait (and how long it goes on when piped), the mailbox and what arrived; the status line ticks the wait', () => {
    const wait = { source: 'mail' as const, where: 'alice@imap.example.com:993/INBOX', rules: 'from *@svc.test', timeoutSeconds: 600 };
    const job: LoopEvent[] = [
      { ...base, type: 'trigger.sent', kind: 'form', target: 'the form on https://svc.test/request (2 fields)', result: 'form accepted: "on its way"', attempts: 1 },
      { ...base, type: 'step.started', step: 'output' },
      { ...base, type: 'output.waiting', ...wait, waitedSeconds: 0 },
      { ...base, type: 'output.mail', mail: { type: 'waiting', mailbox: 'alice@imap.example.com:993', mode: 'idle', since: '2026-11-24T09:00:00Z', timeoutSeconds: 600 } },
      { ...base, type: 'output.mail', mail: { type: 'skipped_attachment', name: 'evil.pptx', why: 'a path in its name' } },
      { ...base, type: 'output.waiting', ...wait, waitedSeconds: 30 },
      { ...base, type: 'output.received', source: 'mail', file: '/runs/deck.pptx', name: 'deck.pptx', size: 2_400_000, from: 'reports@svc.test', subject: 'Report', waitedSeconds: 41 },
    ];
    let out = '';
    const printer = createPrinter('plain', (text) => (out += text));
    for (const event of job) printer.print(event);
    expect(out.split('\n')).toEqual([
      '[1] Triggered: the form on https://svc.test/request (2 fields): form accepted: "on its way"',
      '[1] output',
      '[1] Waiting up to 10:00 for mail in alice@imap.example.com:993/INBOX from *@svc.test',
      '[1]   Skipped evil.pptx: a path in its name',
      '[1]   still waiting: 0:30 of 10:00',
      '[1] Received deck.pptx (2.4 MB) in the mail "Report" from reports@svc.test after 41 s',
      '',
    ]);
    let tty = '';
    let now = 0;
    const terminal = createPrinter('tty', (text) => (tty += text), () => now);
    terminal.print(job[1] as LoopEvent);
    terminal.print(job[2] as LoopEvent);
    now = 95_000;
    terminal.print(job[4] as LoopEvent);
    expect(tty).toContain('iteration 1 · output · 1:35 · $0.00 · waiting for mail 1:35 of 10:00');
  });
});

import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputSnapshot, runTrigger, waitForOutput, type ExternalDeps } from '../../../../native-host/loop/trigger-output';
import type { CommandResult } from '../../../../native-host/loop/run-command';
import { TriggerSpec, type TriggerSpec as Trigger } from '../../../../shared/protocol/loop-protocol';

const trigger = (spec: Record<string, unknown>): Trigger => TriggerSpec.parse(spec);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deputy-output-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function deps(fetchFn: typeof fetch, result: Partial<CommandResult> = {}, onSleep: () => void = () => undefined): ExternalDeps & { requests: Array<{ url: string; method: string }> } {
  const requests: Array<{ url: string; method: string }> = [];
  let now = 0;
  return {
    requests,
    run: () => Promise.resolve({ exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false, ...result }),
    fetch: ((url: string, init?: RequestInit) => {
      requests.push({ url, method: init?.method ?? 'GET' });
      return fetchFn(url, init);
    }) as typeof fetch,
    now: () => now,
    env: {},
    sleep: (ms) => {
      now += ms;
      onSleep();
      return Promise.resolve();
    },
  };
}

const respond = (status: number, body = '') => (() => Promise.resolve(new Response(body, { status }))) as typeof fetch;
const refuse = (() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))) as typeof fetch;

describe('runTrigger', () => {
  it('sends the configured request and reports what came back', async () => {
    const fake = deps(respond(202));
    await expect(runTrigger(trigger({ url: 'http://127.0.0.1:9000/jobs', method: 'POST', body: '{"job":"report"}', timeoutSeconds: 5 }), dir, fake)).resolves.toEqual({
      kind: 'http',
      target: 'POST http://127.0.0.1:9000/jobs (16 bytes)',
      result: 'HTTP 202',
    });
    expect(fake.requests).toEqual([{ url: 'http://127.0.0.1:9000/jobs', method: 'POST' }]);
    await expect(runTrigger(trigger({ url: 'http://127.0.0.1:9000/jobs', method: 'POST', timeoutSeconds: 5 }), dir, deps(respond(500)))).rejects.toThrow(
      'The trigger POST http://127.0.0.1:9000/jobs (no body) answered HTTP 500: check the URL, the fields and that the job can be started',
    );
    await expect(runTrigger(trigger({ url: 'http://127.0.0.1:9000/jobs', method: 'GET', timeoutSeconds: 5 }), dir, deps(refuse))).rejects.toThrow('could not be sent (ECONNREFUSED)');
  });

  it('runs a trigger command and reports its failure with its output', async () => {
    await expect(runTrigger(trigger({ command: 'make report', timeoutSeconds: 5 }), dir, deps(refuse, { exitCode: 2, stderr: 'make: *** No rule to make target' }))).rejects.toThrow(
      'The trigger command "make report" exited with 2: make: *** No rule to make target',
    );
  });
});

describe('waitForOutput', () => {
  const spec = (extra = {}) => ({ folder: dir, pattern: 'report-*.json', timeoutSeconds: 10, pollSeconds: 1, ...extra });

  it('waits for a file that was not there before the trigger, ignoring older ones and other names', async () => {
    writeFileSync(join(dir, 'report-old.json'), '{}');
    utimesSync(join(dir, 'report-old.json'), 1000, 1000);
    const baseline = outputSnapshot(spec(), dir);
    let polls = 0;
    const fake = deps(refuse, {}, () => {
      polls += 1;
      if (polls === 1) writeFileSync(join(dir, 'notes.txt'), 'x');
      if (polls === 2) writeFileSync(join(dir, 'report-new.json'), '{"ok":true}');
    });
    await expect(waitForOutput(spec(), dir, baseline, join(dir, 'saved'), fake)).resolves.toBe(join(dir, 'report-new.json'));
    expect(polls).toBe(2);
    // Without a baseline (the first run with no trigger) the newest match counts.
    await expect(waitForOutput(spec(), dir, undefined, join(dir, 'saved'), fake)).resolves.toBe(join(dir, 'report-new.json'));
  });

  it('says where it looked when nothing appears in time', async () => {
    await expect(waitForOutput(spec({ timeoutSeconds: 3 }), dir, {}, join(dir, 'saved'), deps(refuse))).rejects.toThrow(
      `No file matching "report-*.json" appeared in ${dir} within 3 s: check that the job ran and where it writes its output`,
    );
  });

  it('fetches an output document and saves it for the check', async () => {
    const saved = join(dir, 'output-1');
    await expect(waitForOutput({ url: 'http://127.0.0.1:9000/report', timeoutSeconds: 5 }, dir, undefined, saved, deps(respond(200, 'total: 42')))).resolves.toBe(saved);
    expect(readFileSync(saved, 'utf8')).toBe('total: 42');
    await expect(waitForOutput({ url: 'http://127.0.0.1:9000/report', timeoutSeconds: 5 }, dir, undefined, saved, deps(respond(404)))).rejects.toThrow('answered HTTP 404');
  });
});

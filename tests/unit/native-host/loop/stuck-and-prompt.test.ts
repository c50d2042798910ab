import { describe, expect, it } from 'vitest';
import type { FailureItem } from '../../../../shared/protocol/loop-protocol';
import { buildFixerPrompt, CHANGE_APPROACH_TEXT } from '../../../../native-host/loop/fixer-prompt';
import type { IterationRecord } from '../../../../native-host/loop/loop-state';
import { failureSignature, repeatCount } from '../../../../native-host/loop/stuck-detector';

const failing = (id: string, message = 'failed', severity: FailureItem['severity'] = 'failure'): FailureItem => ({ id, message, severity });
const record = (iteration: number, failures: FailureItem[], extra: Partial<IterationRecord> = {}): IterationRecord => ({
  iteration,
  startCommit: 'abc',
  failures,
  passed: false,
  signature: failureSignature(failures),
  interruptedRuns: 0,
  ...extra,
});

describe('stuck detection', () => {
  it('ignores order and messages of structured failures, but not their ids', () => {
    expect(failureSignature([failing('a', 'took 12ms'), failing('b')])).toBe(failureSignature([failing('b'), failing('a', 'took 15ms')]));
    expect(failureSignature([failing('a')])).not.toBe(failureSignature([failing('a'), failing('b')]));
  });

  it('tells unstructured output apart by its text, digits aside', () => {
    expect(failureSignature([failing('output', 'error at 10:42:01', 'warning')])).toBe(failureSignature([failing('output', 'error at 11:03:59', 'warning')]));
    expect(failureSignature([failing('output', 'disk full', 'warning')])).not.toBe(failureSignature([failing('output', 'timeout', 'warning')]));
  });

  it('counts identical failing checks in a row, ending with the latest', () => {
    const same = [failing('a')];
    expect(repeatCount([])).toBe(0);
    expect(repeatCount([record(1, same), record(2, same), record(3, same)])).toBe(3);
    expect(repeatCount([record(1, same), record(2, [failing('b')]), record(3, same)])).toBe(1);
    expect(repeatCount([record(1, same), record(2, same), { ...record(3, same), passed: undefined, signature: undefined }])).toBe(2);
  });
});

describe('buildFixerPrompt', () => {
  const base = { guidanceFile: 'CLAUDE.md', protectedPaths: ['**/.env'], allowedPaths: [], changeApproach: false, checkCommand: 'npm test' };

  it('groups failures by severity, errors first', () => {
    const prompt = buildFixerPrompt({ ...base, failures: [failing('t1', 'expected 2'), failing('suite', 'cannot import', 'error')], history: [] });
    expect(prompt.indexOf('## Errors (tests that could not run)\n- suite - cannot import')).toBeGreaterThan(0);
    expect(prompt.indexOf('## Errors')).toBeLessThan(prompt.indexOf('## Failures\n- t1 - expected 2'));
    expect(prompt).not.toContain(CHANGE_APPROACH_TEXT);
    expect(prompt).not.toContain('## Earlier iterations');
  });

  it('carries the history, the guidance, the logs and the mandate', () => {
    const history = [
      record(1, [failing('a')], { fixer: { costUsd: 0.1, isError: false, summary: 'Tried X', completed: true }, rejected: ['changed .env is a protected path'] }),
      record(2, [failing('a')], { fixer: { costUsd: 0.1, isError: false, summary: 'Tried Y', completed: true }, commit: '0123456789abcdef' }),
    ];
    const prompt = buildFixerPrompt({ ...base, failures: [failing('a')], history, guidance: 'Use integer cents.', logs: 'ERROR db timeout', changeApproach: true, allowedPaths: ['src/**'] });
    expect(prompt).toContain(`IMPORTANT: ${CHANGE_APPROACH_TEXT}`);
    expect(prompt).toContain('- Iteration 1: failing [a]; fix: "Tried X"; REJECTED and rolled back: changed .env is a protected path');
    expect(prompt).toContain('- Iteration 2: failing [a]; fix: "Tried Y"; committed 0123456789');
    expect(prompt).toContain("## The service's guidance (CLAUDE.md)\nUse integer cents.");
    expect(prompt).toContain('## Service logs after the last deploy\n<untrusted_output source="service logs">\nERROR db timeout\n</untrusted_output>');
    expect(prompt).toContain('Change only files under: src/**.');
    expect(prompt).toContain('Never touch protected paths: **/.env.');
    expect(prompt).toContain('write CANNOT_FIX.md at the repository root');
  });
});

import { describe, expect, it } from 'vitest';
import { defaultParallel, parseEvalFlags } from '../../../../scripts/eval/eval-flags';

const env = { OPENAI_API_KEY: 'sk-test' };
const now = new Date('2026-01-02T03:04:05.678Z');

function run(argv: string[], environment: NodeJS.ProcessEnv = env) {
  const command = parseEvalFlags(argv, environment, now);
  if (command.kind !== 'run') throw new Error('expected a run');
  return command;
}

describe('npm run eval flags', () => {
  it("reads the model flags with npm run task's own parser, and its own flags beside them", () => {
    const { options } = run(['--model', 'gpt-4o', '--suite', 'deputy', '--parallel', '3', '--seed', 's1', '--timeout', '45', '--tasks', 'shop-*, deputy/account-form', '--steps', '12', '--screenshots']);
    expect(options.base.provider).toMatchObject({ preset: 'openai', model: 'gpt-4o', apiKey: 'sk-test', vision: true });
    expect(options.base).toMatchObject({ steps: 12, screenshots: true, mode: 'act', approve: 'all' });
    expect(options).toMatchObject({ suites: ['deputy'], parallel: 3, seed: 's1', timeoutMs: 45_000, tasks: ['shop-*', 'deputy/account-form'], outDir: 'eval-runs/2026-01-02T03-04-05-678Z', label: null });
  });

  it('answers approvals with "all" unless told --approve none, and picks a seed and the parallelism when not given', () => {
    const first = run(['--suite', 'deputy']).options;
    expect(first.base.approve).toBe('all');
    expect(first.seed).toMatch(/^[0-9a-f]{8}$/);
    expect(first.parallel).toBe(defaultParallel());
    expect(run(['--suite', 'deputy', '--approve', 'none']).options.base.approve).toBe('none');
    expect([defaultParallel(1), defaultParallel(2), defaultParallel(8), defaultParallel(64)]).toEqual([1, 1, 4, 8]);
  });

  it('leaves MiniWoB++ out with the reason when its folder is missing, and only then', () => {
    const command = run(['--suite-dir', '/nowhere/miniwob']);
    expect(command.options.suites).toEqual(['deputy']);
    expect(command.notes[0]).toMatch(/^MiniWoB\+\+ left out: MiniWoB\+\+ is not at \/nowhere\/miniwob/);
    expect(run(['--suite', 'miniwob', '--suite-dir', '/nowhere/miniwob']).options.suites).toEqual(['miniwob']);
  });

  it('refuses what has no meaning for an evaluation, saying why', () => {
    expect(() => run(['--suite', 'deputy', 'buy', 'milk'])).toThrow('Unexpected "buy milk": npm run eval takes no task text');
    expect(() => run(['--url', 'https://example.org'])).toThrow(/^--url is for one task/);
    expect(() => run(['--profile', '/tmp/p'])).toThrow(/^--profile is for one task/);
    expect(() => run(['--suite', 'webarena'])).toThrow('names no suite: the suites are deputy, miniwob');
    expect(() => run(['--parallel', '0'])).toThrow('expected a whole number of 1 or more');
    expect(() => run(['--rerun-failures', 'a.json', '--tasks', 'x'])).toThrow('leave out --suite and --tasks');
    expect(() => run(['--suite', 'deputy'], {})).toThrow(/^No API key for openai/);
  });

  it('--as-routines runs each task live, then as a routine; off unless given', () => {
    expect(run(['--suite', 'deputy', '--as-routines']).options.asRoutines).toBe(true);
    expect(run(['--suite', 'deputy']).options.asRoutines).toBe(false);
  });

  it('compares reports without needing a key or a model', () => {
    expect(parseEvalFlags(['--compare', 'a.json', 'b.json'], {}, now)).toEqual({ kind: 'compare', files: ['a.json', 'b.json'], out: 'eval-runs/compare-2026-01-02T03-04-05-678Z' });
    expect(() => parseEvalFlags(['--compare', 'a.json'], {}, now)).toThrow('--compare needs two or more report.json files.');
  });
});

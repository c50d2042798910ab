import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeChangesFrom } from '../../../../native-host/cli/loop-command';
import { documentCheck, findingToFailure, preflightDocument } from '../../../../native-host/loop/document-check';
import { buildFixerPrompt, CHANGE_APPROACH_TEXT } from '../../../../native-host/loop/fixer-prompt';
import { loadLoopConfig, parseLoopConfig } from '../../../../native-host/loop/load-loop-config';
import type { CheckRunner, Escalation, LoopContext } from '../../../../native-host/loop/loop-context';
import { describeEvent } from '../../../../native-host/loop/loop-printer';
import { renderReport } from '../../../../native-host/loop/loop-report';
import { createStepTable } from '../../../../native-host/loop/loop-steps';
import type { IterationRecord, LoopState } from '../../../../native-host/loop/loop-state';
import { failureSignature } from '../../../../native-host/loop/stuck-detector';
import { guardRules } from '../../../../native-host/loop/step-support';
import { outputFromText, triggerFromText } from '../../../../shared/protocol/loop-locations';
import type { DocumentVerdict, FailureItem, LoopEvent } from '../../../../shared/protocol/loop-protocol';
import { buildDeck } from '../../../fixtures/documents/deck-builder';
import { tempFiles } from '../../../fixtures/documents/temp-files';

const finding = (id: string, severity: FailureItem['severity']): FailureItem => ({ id, message: `${id} is off`, severity });
const VERDICT: DocumentVerdict = { kind: 'pptx', output: '/out/deck-2.pptx', summary: 'FAIL: 0 critical, 2 high, 1 medium', counts: { critical: 0, high: 2, medium: 1 }, hollow: false, reportPath: '/state/runs/ab/iteration-1/report.html' };

describe('document mode: definition and flags', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'deputy-docmode-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('needs no check command with a template, but an output section, and a template or rules', () => {
    const config = parseLoopConfig({ repo: '/r', output: { folder: 'out', pattern: '*.pptx' }, document: { template: 'ref.pptx' } }, 'test');
    expect(config.check).toBeUndefined();
    expect(config.document).toEqual({ template: 'ref.pptx', images: true });
    expect(config.research).toEqual({ enabled: true });
    expect(() => parseLoopConfig({ repo: '/r', document: { template: 'ref.pptx' } }, 'test')).toThrow(/document mode needs an "output" section/);
    expect(() => parseLoopConfig({ repo: '/r', output: { url: 'http://x.test/a.pptx' }, document: {} }, 'test')).toThrow(/needs a template or a rules file/);
    expect(() => parseLoopConfig({ repo: '/r' }, 'test')).toThrow(/needs a check command, or an output template/);
  });

  it('reads --trigger, --output, --output-template, --output-rules, --no-output-images and the research flags', () => {
    const config = loadLoopConfig(
      { repo: dir, trigger: 'node build.mjs out', output: 'out/deck-*.pptx', outputTemplate: 'ref.pptx', outputRules: 'rules.json', outputImages: false, research: false, researchModel: 'gpt-5' },
      '/',
    );
    expect(config.trigger).toEqual({ command: 'node build.mjs out', timeoutSeconds: 600 });
    expect(config.output).toEqual({ folder: 'out', pattern: 'deck-*.pptx', timeoutSeconds: 900, pollSeconds: 5 });
    expect(config.document).toEqual({ template: 'ref.pptx', rules: 'rules.json', images: false });
    expect(config.research).toEqual({ enabled: false, model: 'gpt-5' });
    expect(loadLoopConfig({ repo: dir, output: 'https://svc.test/latest.pptx', outputTemplate: 'ref.pptx', trigger: 'https://svc.test/run' }, '/').trigger).toEqual({ url: 'https://svc.test/run', method: 'POST', headers: {}, idempotent: false, timeoutSeconds: 60 });
    expect(() => loadLoopConfig({ repo: dir, outputTemplate: 'ref.pptx' }, '/')).toThrow(/document mode needs an "output" section/);
  });

  it('reads document mode from deputy.loop.json, flags winning', () => {
    const repo = join(dir, 'from-file');
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo);
    writeFileSync(join(repo, 'deputy.loop.json'), JSON.stringify({ trigger: { url: 'https://svc.test/run' }, output: { url: 'https://svc.test/latest.xlsx' }, document: { template: 'ref.xlsx', maxSizeMb: 20 }, research: { model: 'gpt-5' } }));
    const config = loadLoopConfig({ repo, outputRules: 'rules.json' }, '/');
    expect(config.document).toEqual({ template: 'ref.xlsx', rules: 'rules.json', images: true, maxSizeMb: 20 });
    expect(config.research).toEqual({ enabled: true, model: 'gpt-5' });
    expect(config.check).toBeUndefined();
  });

  it('--resume keeps the definition: document and research flags are refused, --no-... ones only when given', () => {
    expect(() => resumeChangesFrom({ outputTemplate: 'ref.pptx', research: false })).toThrow(/^--output-template, --no-research cannot change a loop on --resume/);
    expect(resumeChangesFrom({ research: true, outputImages: true, maxCost: 3 })).toEqual({ budgets: { maxCostUsd: 3 } });
  });

  it('splits an output path into folder and pattern, and tells URLs from commands', () => {
    expect(outputFromText(' /srv/reports/deck-*.pptx ')).toEqual({ folder: '/srv/reports', pattern: 'deck-*.pptx' });
    expect(outputFromText('deck.pptx')).toEqual({ folder: '.', pattern: 'deck.pptx' });
    expect(outputFromText('/deck.pptx')).toEqual({ folder: '/', pattern: 'deck.pptx' });
    expect(outputFromText('C:\\reports\\deck.xlsx')).toEqual({ folder: 'C:\\reports', pattern: 'deck.xlsx' });
    expect(outputFromText('http://svc.test/out.docx')).toEqual({ url: 'http://svc.test/out.docx' });
    expect(triggerFromText('curl -X POST http://svc.test/run')).toEqual({ command: 'curl -X POST http://svc.test/run' });
  });

  it('protects a template and rules inside the repo from the fixer, and leaves those outside alone', () => {
    const state = { repo: '/srv/app', config: parseLoopConfig({ repo: '/srv/app', output: { folder: 'out', pattern: '*.pptx' }, document: { template: 'templates/ref.pptx', rules: '/etc/deputy/rules.json' } }, 'test') };
    expect(guardRules(state as LoopState).protectedPaths).toContain('templates/ref.pptx');
    expect(guardRules(state as LoopState).protectedPaths).not.toContain('/etc/deputy/rules.json');
  });
});

describe('document mode: findings for the fixer', () => {
  it('leaves medium findings out of the stuck signature: they do not fail the check', () => {
    const high = finding('slide 2 [format.title-size]', 'high');
    expect(failureSignature([high, finding('slide 3 [content.paragraphs]', 'medium')])).toBe(failureSignature([high]));
    expect(failureSignature([high])).not.toBe(failureSignature([finding('slide 2 [format.title-color]', 'high')]));
  });

  it('keeps the same id for the same defect whatever the values, and the values in the message', () => {
    const item = findingToFailure({ rule: 'format.title-size', severity: 'high', location: { label: 'slide 4, shape "Title 1"', slide: 4, shape: 'Title 1' }, message: 'The title is too big', expected: '28 pt', actual: '36 pt', fix: 'Use 28 pt.' });
    expect(item).toEqual({ id: 'slide 4, shape "Title 1" [format.title-size]', severity: 'high', location: 'slide 4, shape "Title 1"', message: 'The title is too big. Expected 28 pt; found 36 pt. Fix: Use 28 pt.' });
  });

  it('builds the prompt from the judge: its own grouping and notes, earlier verdicts, the research, and what may run', () => {
    const earlier: IterationRecord = { iteration: 1, startCommit: 'a', failures: [finding('slide 2 [format.title-size]', 'high')], passed: false, interruptedRuns: 0, document: VERDICT, fixer: { costUsd: 0.1, isError: false, summary: 'Tried X', completed: true }, commit: '0123456789abcdef' };
    const prompt = buildFixerPrompt({
      failures: [finding('slide 2 [format.title-size]', 'high'), finding('build', 'error')],
      findingsText: 'The output document does not match its template: FAIL.\n\n## High (1)\n- [format.title-size] slide 2\n\n## The template\'s reference notes\nTitles are 28 pt.',
      history: [earlier],
      guidanceFile: 'CLAUDE.md',
      protectedPaths: ['**/.env'],
      allowedPaths: [],
      changeApproach: true,
      document: { template: '/t/ref.pptx', triggerCommand: 'node build.mjs', compareCommand: "'node' 'deputy.mjs' compare" },
      research: 'Root cause: TITLE_SIZE is 36.',
    });
    expect(prompt).toMatch(/^The output document this service produces does not match its reference template/);
    expect(prompt).toContain(`IMPORTANT: ${CHANGE_APPROACH_TEXT}`);
    // A command check's failures keep their sections; the document's findings come as the judge wrote them.
    expect(prompt).toContain('## Errors (tests that could not run)\n- build - build is off');
    expect(prompt).toContain("## The template's reference notes\nTitles are 28 pt.");
    expect(prompt).not.toContain('## High findings in the output document');
    expect(prompt).toContain('- Iteration 1: FAIL: 0 critical, 2 high, 1 medium; failing [slide 2 [format.title-size]]; fix: "Tried X"; committed 0123456789');
    expect(prompt).toContain('## Root-cause analysis (research step)\n');
    expect(prompt).toContain('Root cause: TITLE_SIZE is 36.');
    expect(prompt).not.toContain('You may run the check');
    expect(prompt).toContain('- You may run the job to make a new output document: `node build.mjs`.');
    expect(prompt).toContain("- You may compare an output document with the template the loop judges it by: `'node' 'deputy.mjs' compare OUTPUT_FILE --template /t/ref.pptx`.");
    expect(prompt).toContain('- Never edit the template or its rules');
  });

  it('groups document findings by severity when the check did not format them', () => {
    const prompt = buildFixerPrompt({ failures: [finding('a', 'medium'), finding('b', 'critical')], history: [], guidanceFile: 'CLAUDE.md', protectedPaths: [], allowedPaths: [], changeApproach: false, checkCommand: 'make check' });
    expect(prompt.indexOf('## Critical findings in the output document\n- b - b is off')).toBeLessThan(prompt.indexOf('## Medium findings in the output document\n- a - a is off'));
  });

  it('prints a judged output with its counts, top findings and report; the report file keeps them', () => {
    const failures = [finding('slide 2 [format.title-size]', 'high'), finding('slide 3 [format.title-size]', 'high'), finding('slide 4 [x]', 'high'), finding('slide 5 [y]', 'medium')];
    const event: LoopEvent = { type: 'check.result', loopId: 'l', at: 1, iteration: 2, passed: false, format: 'pptx', failures, document: { ...VERDICT, counts: { critical: 0, high: 3, medium: 1 } } };
    expect(describeEvent(event)?.split('\n')).toEqual([
      '[2] output deck-2.pptx: FAIL: 0 critical, 2 high, 1 medium',
      '[2]   high slide 2 [format.title-size]: slide 2 [format.title-size] is off',
      '[2]   high slide 3 [format.title-size]: slide 3 [format.title-size] is off',
      '[2]   high slide 4 [x]: slide 4 [x] is off',
      '[2]   ... and 1 more',
      '[2]   report: /state/runs/ab/iteration-1/report.html',
    ]);
  });
});

/** A loop state and context for the check step alone; git reports a clean tree. */
function checkContext(repo: string, stateDir: string, history: IterationRecord[] = []): { context: LoopContext; events: LoopEvent[]; state: LoopState } {
  const config = parseLoopConfig({ repo, output: { folder: 'out', pattern: '*.pptx' }, document: { template: 'ref.pptx', images: false } }, 'test');
  const state: LoopState = { version: 1, loopId: '0123456789ab', repo, branch: 'main', config, startedAt: 0, updatedAt: 0, activeMs: 0, iteration: history.length + 1, step: 'check', history, pushedCommits: [], costUsd: 0 };
  const events: LoopEvent[] = [];
  const context = {
    state,
    deps: { paths: { dir: stateDir } },
    git: { changedPaths: () => Promise.resolve([]), showFile: () => Promise.resolve(undefined) },
    save: () => undefined,
    emit: (event: Omit<LoopEvent, 'loopId' | 'at' | 'iteration'>) => events.push({ ...event, loopId: state.loopId, at: 0, iteration: state.iteration } as LoopEvent),
    finish: (outcome: LoopState['outcome'], reason: string) => {
      state.outcome = outcome;
      state.reason = reason;
    },
  } as unknown as LoopContext;
  return { context, events, state };
}

describe('document mode: the check step', () => {
  const files = tempFiles('deputy-docmode-check-');
  let template = '';
  beforeAll(async () => {
    template = files.write('ref.pptx', await buildDeck());
  });
  afterAll(() => files.cleanup());

  it('judges the output, writes the report per iteration, and returns findings with the verdict', async () => {
    const { context } = checkContext(files.dir, join(files.dir, 'state'));
    const output = files.write('out-1.pptx', await buildDeck({ titleSize: 40 }));
    const outcome = await documentCheck({ template, images: false })(context, output);
    expect(outcome.passed).toBe(false);
    expect(outcome.format).toBe('pptx');
    expect(outcome.document).toMatchObject({ kind: 'pptx', output, hollow: false, reportPath: join(files.dir, 'state', 'runs', '01234567', 'iteration-1', 'report.html') });
    expect(outcome.findings.every((item) => item.severity === 'high' || item.severity === 'critical' || item.severity === 'medium')).toBe(true);
    expect(outcome.fixerText).toMatch(/^The output document does not match its template: FAIL/);
    expect(outcome.halt).toBeUndefined();
  });

  it('turns an unreadable output into a critical finding for the fixer, not a failed step', async () => {
    const { context } = checkContext(files.dir, join(files.dir, 'state'));
    const outcome = await documentCheck({ template, images: false })(context, files.write('truncated.pptx', 'PK\u0003\u0004 not really a zip'));
    expect(outcome).toMatchObject({ passed: false, findings: [{ id: 'document [document.unreadable]', severity: 'critical' }] });
    expect(outcome.findings[0]?.message).toMatch(/truncated\.pptx .*Fix the code that writes truncated\.pptx\./);
  });

  it('refuses a template or rules that cannot be used before the loop starts, saying which', async () => {
    await expect(preflightDocument(files.dir, { template: 'missing.pptx', images: false })).rejects.toThrow(/^The output template .*missing\.pptx cannot be used: /);
    writeFileSync(join(files.dir, 'rules.json'), '{"pptx": {"titleSize": "big"}}');
    await expect(preflightDocument(files.dir, { rules: 'rules.json', images: false })).rejects.toThrow(/^The output rules .*rules\.json cannot be used: /);
    await expect(preflightDocument(files.dir, { template: 'ref.pptx', images: false })).resolves.toBeUndefined();
  });

  it('a hollow output halts the loop as needing a person, before any stuck or pass logic', async () => {
    const { context, state, events } = checkContext(files.dir, join(files.dir, 'state'));
    const hollow = files.write('hollow.pptx', await buildDeck({ hollow: true }));
    state.config.outputFile = hollow;
    const table = createStepTable({ check: (ctx, out) => documentCheck({ template, images: false })(ctx, out ?? hollow) });
    expect(await table.check(context)).toBe('halted');
    expect(state.outcome).toBe('needs_human');
    expect(state.reason).toMatch(/^Needs a human: the output hollow\.pptx is hollow\./);
    expect(state.history[0]?.document?.hollow).toBe(true);
    expect(events.find((event) => event.type === 'check.result')).toMatchObject({ document: { hollow: true } });
  });

  it('escalates once per set of findings, feeds the guidance to the fix, and says why when it skipped', async () => {
    const failures = [finding('slide 2 [format.title-size]', 'high')];
    const past = (iteration: number): IterationRecord => ({ iteration, startCommit: 'a', failures, passed: false, signature: failureSignature(failures), interruptedRuns: 0, noChange: true });
    const check: CheckRunner = () => Promise.resolve({ passed: false, format: 'pptx', findings: failures });
    let calls = 0;
    const research: Escalation = () => {
      calls += 1;
      return Promise.resolve({ guidance: 'Root cause: the constant.' });
    };
    const third = checkContext(files.dir, join(files.dir, 'state'), [past(1), past(2)]);
    expect(await createStepTable({ check, escalate: research }).check(third.context)).toBe('1 failure(s)');
    expect(third.state.history[2]?.escalation).toBe('Root cause: the constant.');
    expect(third.state.step).toBe('fix');

    const fourth = checkContext(files.dir, join(files.dir, 'state'), [past(1), past(2), { ...past(3), escalation: 'Root cause: the constant.' }]);
    expect(await createStepTable({ check, escalate: research }).check(fourth.context)).toBe('stuck');
    expect(calls).toBe(1);
    expect(fourth.state.reason).toMatch(/^Stuck: the same 1 finding\(s\) came back 4 times in a row, also after asking for a different approach and after a root-cause analysis\./);

    const skipped = checkContext(files.dir, join(files.dir, 'state'), [past(1), past(2)]);
    await createStepTable({ check, escalate: () => Promise.resolve({ skipped: 'Research when stuck was skipped: no model is configured.' }) }).check(skipped.context);
    expect(skipped.state.outcome).toBe('stuck');
    expect(skipped.state.reason).toMatch(/changed nothing; changed nothing\. Research when stuck was skipped: no model is configured\.$/);
  });

  it('the loop report shows each iteration verdict, its report and the research', () => {
    const { state } = checkContext('/srv/app', '/state', [
      { iteration: 1, startCommit: 'a', failures: [finding('slide 2 [format.title-size]', 'high')], passed: false, interruptedRuns: 0, document: VERDICT, escalation: 'Root cause: the constant.\nSet it to 28.' },
    ]);
    const report = renderReport(state);
    expect(report).toContain('- Output document judged against ref.pptx');
    expect(report).not.toContain('- Check: `');
    expect(report).toContain('Judgement: FAIL: 0 critical, 2 high, 1 medium (0 critical, 2 high, 1 medium)');
    expect(report).toContain('Report: /state/runs/ab/iteration-1/report.html');
    expect(report).toContain('> Root cause: the constant.\n> Set it to 28.');
  });
});

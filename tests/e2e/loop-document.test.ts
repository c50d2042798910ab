import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../shared/protocol/loop-protocol';
import { buildDeckServiceRepo, DECK_SCRIPT, fixTitleSize, type DeckServiceRepo } from '../fixtures/repo/deck-service';
import { finished, killLoopAt, runLoopCli, startLoopCli } from '../fixtures/repo/loop-cli';
import { useE2e } from './support/e2e-fixture';

// Document mode from the built `deputy loop`: a service in a real git repo (with a bare remote) builds a deck with
// pptxgenjs each iteration, the deck is judged against the template the defect-free service makes, and the fake
// claude stand-in edits the service's code. Page images are off: LibreOffice rendering is tested by deputy compare.
const LOOP_TIMEOUT = 180_000;

let repo: DeckServiceRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

function documentArgs(service: DeckServiceRepo, extra: string[] = []): string[] {
  return ['--trigger', service.triggerCommand, '--output', `${service.outbox}/deck-*.pptx`, '--output-template', service.template, '--no-output-images', ...extra];
}

const checks = (events: LoopEvent[]) => events.filter((event): event is Extract<LoopEvent, { type: 'check.result' }> => event.type === 'check.result');
const prompts = (service: DeckServiceRepo): string[] => service.fixerRuns().filter((entry) => entry.event === 'start').map((entry) => entry.prompt ?? '');

/** A fixer run that touches the service without fixing it: a comment, so the findings stay the same. */
const NO_FIX = { steps: [{ tool: 'Edit' as const, file: DECK_SCRIPT, old: "const COLOR = '1F3864';", new: "const COLOR = '1F3864'; // brand blue" }], result: 'Tidied the colour constant', costUsd: 0.04 };

describe('deputy loop in document mode: the output judged against a template', () => {
  it('finds the wrong title size, the fixer fixes the code, the next deck passes and the fix is pushed', async () => {
    repo = buildDeckServiceRepo({ titleSize: 36 });
    repo.writeScenario({ runs: [{ steps: [{ tool: 'Read', file: DECK_SCRIPT }, fixTitleSize(36)], result: 'Draw titles at the template size', costUsd: 0.1 }] });
    const run = await runLoopCli(repo, documentArgs(repo, ['--max-iterations', '4']));

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    expect(finished(run)?.reason).toBe('The output matches its template after 1 pushed fix(es)');
    const [first, second] = checks(run.events);
    expect(first?.passed).toBe(false);
    expect(first?.document).toMatchObject({ kind: 'pptx', counts: { critical: 0, high: 4, medium: 0 }, hollow: false });
    expect(first?.failures[0]).toMatchObject({ id: 'slide 2, shape "Title" [format.title-size]', severity: 'high', location: 'slide 2, shape "Title"' });
    expect(first?.failures[0]?.message).toContain('Expected 28 pt; found 36 pt');
    expect(second?.passed).toBe(true);
    expect(second?.document?.summary).toBe('PASS: matches the template');
    // Each iteration's report and findings sit in the loop's run folder, and the output judged is the new deck.
    for (const check of [first, second]) {
      expect(readFileSync(check?.document?.reportPath ?? '', 'utf8')).toContain('<h1>Deputy compare</h1>');
      expect(JSON.parse(readFileSync(check?.document?.findingsPath ?? '', 'utf8'))).toHaveProperty('counts');
    }
    expect(first?.document?.reportPath).toMatch(/runs\/[0-9a-f]{8}\/iteration-1\/report\.html$/);
    expect(second?.document?.output).not.toBe(first?.document?.output);

    // The fixer read the findings by severity and was allowed to run the job and the comparison.
    const [prompt] = prompts(repo);
    expect(prompt).toMatch(/^The output document this service produces does not match its reference template/);
    expect(prompt).toContain('## High (4)\n- [format.title-size] slide 2, shape "Title": The title\'s font size differs from the template. Expected 28 pt; found 36 pt.');
    expect(prompt).toContain(`You may run the job to make a new output document: \`${repo.triggerCommand}\``);
    expect(prompt).toMatch(/You may compare an output document with the template the loop judges it by: `'.+' '.+deputy\.mjs' compare OUTPUT_FILE --template /);
    const settings = JSON.parse(readFileSync(join(dirname(finished(run)?.reportPath ?? ''), 'claude-settings.json'), 'utf8')) as { permissions: { allow: string[] } };
    expect(settings.permissions.allow).toContain(`Bash(${repo.triggerCommand})`);

    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.git(['show', `main:${DECK_SCRIPT}`], repo.remote)).toContain('const TITLE_SIZE = 28;');
    expect(repo.git(['status', '--porcelain'])).toBe('');
    const report = readFileSync(finished(run)?.reportPath ?? '', 'utf8');
    expect(report).toContain('Judgement: FAIL: 0 critical, 4 high, 0 medium');
    expect(report).toContain(`Report: ${first?.document?.reportPath ?? ''}`);
  }, LOOP_TIMEOUT);

  it('output the job writes inside the repo is never committed, also when the fixer runs the job itself, nor blocks a resume', async () => {
    repo = buildDeckServiceRepo({ titleSize: 36 });
    const trigger = `node ${DECK_SCRIPT} out`;
    repo.writeScenario({ runs: [{ steps: [fixTitleSize(36), { tool: 'Bash', command: trigger }], result: 'Draw titles at the template size' }] });
    const args = ['--trigger', trigger, '--output', 'out/deck-*.pptx', '--output-template', repo.template, '--no-output-images'];
    // Stopped (as a crash would) once the first deck is in out/: the resume finds that deck in the tree and goes on.
    const { killed } = await killLoopAt(repo, args, (event) => event.type === 'step.finished' && event.step === 'output');
    expect(killed).toBe(true);
    const run = await runLoopCli(repo, ['--resume']);

    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    // Three decks: the first iteration's, the one the fixer made to try its fix, the second iteration's; none committed.
    expect(repo.remoteCommits()).toHaveLength(1);
    expect(repo.git(['show', '--name-only', '--format=', 'main'], repo.remote)).toBe(DECK_SCRIPT);
    const untracked = repo.git(['status', '--porcelain', '--untracked-files=all']).split('\n');
    expect(untracked).toHaveLength(3);
    for (const line of untracked) expect(line).toMatch(/^\?\? out\/deck-\d+-\d+\.pptx$/);
  }, LOOP_TIMEOUT);

  it('prints the counts, the top findings and the report per iteration without --json', async () => {
    repo = buildDeckServiceRepo({ titleSize: 36 });
    repo.writeScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size' }] });
    const run = await startLoopCli(repo, documentArgs(repo), { json: false }).done;
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.find((line) => line.startsWith('[1] output deck-'))).toMatch(/^\[1\] output deck-\d+-\d+\.pptx: FAIL: 0 critical, 4 high, 0 medium$/);
    expect(lines).toContain('[1]   high slide 2, shape "Title" [format.title-size]: The title\'s font size differs from the template. Expected 28 pt; found 36 pt. Fix: Set the title\'s font size to 28 pt.');
    expect(lines).toContain('[1]   ... and 1 more');
    expect(lines.find((line) => line.startsWith('[1]   report: '))).toMatch(/iteration-1\/report\.html$/);
    expect(lines.find((line) => line.startsWith('[2] output deck-'))).toMatch(/: PASS: matches the template$/);
  }, LOOP_TIMEOUT);

  it('stops at once on a hollow deck, says why, and never runs the fixer', async () => {
    repo = buildDeckServiceRepo({ hollow: true });
    repo.writeScenario({ runs: [NO_FIX] });
    const run = await runLoopCli(repo, documentArgs(repo));

    expect(run.code).toBe(1);
    const end = finished(run);
    expect(end?.outcome).toBe('needs_human');
    expect(end?.reason).toMatch(/^Needs a human: the output deck-\d+-\d+\.pptx is hollow\. The output is hollow: 6 of 11 places for content .* are empty \(55% empty\)\. The data does not reach the document, so the loop stops instead of asking the fixer to polish details/);
    expect(end?.reason).toMatch(/Report: .*iteration-1\/report\.html$/);
    expect(checks(run.events)[0]?.document).toMatchObject({ hollow: true, counts: { critical: 1 } });
    expect(repo.fixerRuns()).toEqual([]);
    expect(repo.pushes()).toEqual([]);
  }, LOOP_TIMEOUT);

  it('the same findings three times: a change of approach, then stuck, saying research was skipped without a key', async () => {
    repo = buildDeckServiceRepo({ titleSize: 36 });
    repo.writeScenario({ runs: [NO_FIX, { ...NO_FIX, steps: [{ tool: 'Edit', file: DECK_SCRIPT, old: '// brand blue', new: '// the brand blue' }] }] });
    const run = await runLoopCli(repo, documentArgs(repo, ['--max-iterations', '10']));

    expect(run.code).toBe(1);
    const end = finished(run);
    expect(end?.outcome).toBe('stuck');
    expect(checks(run.events).map((check) => check.document?.counts.high)).toEqual([4, 4, 4]);
    const sent = prompts(repo);
    expect(sent).toHaveLength(2);
    expect(sent.map((prompt) => prompt.includes('IMPORTANT: The same failures came back after the last fix'))).toEqual([false, true]);
    // The earlier iteration's verdict and findings reach the next prompt.
    expect(sent[1]).toContain('- Iteration 1: FAIL: 0 critical, 4 high, 0 medium; failing [slide 2, shape "Title" [format.title-size], ');
    expect(end?.reason).toMatch(/^Stuck: the same 4 finding\(s\) came back 3 times in a row, also after asking for a different approach\. The fixer runs in between: pushed [0-9a-f]{10}; pushed [0-9a-f]{10}\. Research when stuck was skipped: no model is configured/);
    expect(run.events.some((event) => event.type === 'notice' && event.level === 'warn' && event.message.startsWith('Research when stuck was skipped'))).toBe(true);
  }, LOOP_TIMEOUT);
});

describe('research when stuck, with the official clients against a local provider', () => {
  const e2e = useE2e({ browser: false, model: true });

  const ANALYSIS = 'Root cause: TITLE_SIZE at the top of service/deck.mjs is 36; every title uses it. Why the attempts failed: they edited COLOR. What to change: set TITLE_SIZE to 28.';

  for (const client of ['openai', 'anthropic'] as const) {
    it(`writes the root-cause analysis into the next fixer prompt, then fixes (${client})`, async () => {
      repo = buildDeckServiceRepo({ titleSize: 36 });
      repo.writeScenario({ runs: [NO_FIX, { ...NO_FIX, steps: [{ tool: 'Edit', file: DECK_SCRIPT, old: '// brand blue', new: '// the brand blue' }] }, { steps: [fixTitleSize(36)], result: 'Set TITLE_SIZE to 28 as the analysis says' }] });
      const before = e2e.fake.requests.length;
      e2e.fake.enqueue({ text: ANALYSIS, usage: { input: 3000, output: 120 }, model: client === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-6' });
      const env: Record<string, string> = client === 'openai' ? { OPENAI_API_KEY: 'sk-test-research' } : { ANTHROPIC_API_KEY: 'sk-ant-test-research' };
      const baseUrl = client === 'openai' ? e2e.fake.openaiBaseUrl : e2e.fake.anthropicBaseUrl;
      const run = await runLoopCli(repo, documentArgs(repo, ['--research-provider', client, '--research-base-url', baseUrl, '--max-iterations', '10']), env);

      expect(run.code).toBe(0);
      expect(finished(run)?.outcome).toBe('passed');
      const requests = e2e.fake.requests.slice(before);
      expect(requests).toHaveLength(1);
      const request = requests[0]!;
      expect(request.path).toBe(client === 'openai' ? '/v1/chat/completions' : '/v1/messages');
      expect(JSON.stringify(request.headers)).toContain(env.OPENAI_API_KEY ?? env.ANTHROPIC_API_KEY ?? 'no key');
      // The model read the findings, the attempts' diffs and the deck itself (marked as untrusted output).
      expect(request.text).toContain('The same failures came back 3 times in a row');
      expect(request.text).toContain('[format.title-size] slide 2, shape \\"Title\\"');
      expect(request.text).toContain("+const COLOR = '1F3864'; // brand blue");
      expect(request.text).toContain('<untrusted_output source=\\"deck-');
      expect(request.text).toContain('Title [title] (36pt Georgia #1F3864): Northwind Robotics');

      const sent = prompts(repo);
      expect(sent).toHaveLength(3);
      // The analysis is a model's reading of what the service wrote: the fixer gets it marked as untrusted, whole.
      expect(sent[2]).toContain(
        `## Root-cause analysis (research step)\nA model read the findings, the recent diffs and the output after the same failures came back. Check its reasoning against the code before you act on it.\n\n<untrusted_output source="research step">\n${ANALYSIS}\n</untrusted_output>`,
      );
      expect(sent[1]).not.toContain('Root-cause analysis');
      expect(run.events.some((event) => event.type === 'notice' && /^Root-cause analysis by (gpt-4\.1|claude-sonnet-4-6) \(\$0\.0\d\) added to the next fixer prompt$/.test(event.message))).toBe(true);
      const report = readFileSync(finished(run)?.reportPath ?? '', 'utf8');
      expect(report).toContain('Root-cause analysis (research step), given to the next fixer run:');
      expect(existsSync(checks(run.events)[3]?.document?.reportPath ?? '')).toBe(true);
    }, LOOP_TIMEOUT);
  }
});

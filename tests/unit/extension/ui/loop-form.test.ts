import { describe, expect, it } from 'vitest';
import { LoopConfig, type LoopSnapshot } from '../../../../shared/protocol/loop-protocol';
import { configFromForm, EMPTY_LOOP_FORM, errorsFromHost, LoopForm, offersResume, resumableLoop } from '../../../../extension/ui/loop-form';

describe('fix loop form', () => {
  it('turns a filled form into a definition the host accepts', () => {
    const result = configFromForm({
      ...EMPTY_LOOP_FORM,
      repo: ' /srv/app ',
      check: 'npm test',
      maxIterations: '5',
      maxCostUsd: '2.50',
      maxMinutes: '30',
      branch: 'main',
      protectedPaths: 'migrations/**\n\n  .env  \n',
      healthUrl: 'http://127.0.0.1:8080/health',
      claudePath: '/opt/claude',
    });
    expect(result).toEqual({
      ok: true,
      config: {
        repo: '/srv/app',
        check: 'npm test',
        branch: 'main',
        budgets: { maxIterations: 5, maxCostUsd: 2.5, maxWallMinutes: 30 },
        protectedPaths: ['migrations/**', '.env'],
        deploy: { healthUrl: 'http://127.0.0.1:8080/health' },
        fixer: { claudePath: '/opt/claude' },
      },
    });
    if (result.ok) expect(LoopConfig.safeParse(result.config).success).toBe(true);
  });

  it('leaves out what is empty, so the host defaults and deputy.loop.json apply', () => {
    expect(configFromForm({ ...EMPTY_LOOP_FORM, repo: '/srv/app', check: 'npm test' })).toEqual({ ok: true, config: { repo: '/srv/app', check: 'npm test' } });
  });

  it('says per field what to fix', () => {
    const result = configFromForm({ ...EMPTY_LOOP_FORM, maxIterations: '2.5', maxCostUsd: 'lots', maxMinutes: '-1', healthUrl: 'my-service/health' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['check', 'healthUrl', 'maxCostUsd', 'maxIterations', 'maxMinutes', 'repo']);
    expect(result.errors.repo).toMatch(/folder of the git checkout/);
    expect(result.errors.maxIterations).toMatch(/whole number/);
  });

  it('puts the host error on the field it is about, and keeps its sentence', () => {
    const missing = 'The repository folder /tmp/x does not exist: pass --repo with the path of a git checkout';
    expect(errorsFromHost(missing)).toEqual({ repo: missing });
    const invalid = 'The loop definition in loop.start is invalid: budgets.maxIterations: Too big: expected number to be <=1000';
    expect(errorsFromHost(invalid)).toEqual({ maxIterations: invalid });
    const claude = 'Could not start the Claude Code CLI at "/nope" (ENOENT): pass --claude-path with the full path';
    expect(errorsFromHost(claude)).toEqual({ claudePath: claude });
    const other = 'No connection to the background';
    expect(errorsFromHost(other)).toEqual({ form: other });
  });

  it('offers a resume when the host has an unfinished loop for the repository', () => {
    expect(offersResume('An unfinished loop exists for /srv/app (iteration 1, step fix): continue it with --resume, or discard it with --restart')).toBe(true);
    expect(offersResume('The repository folder /x does not exist')).toBe(false);
    const loop = (change: Partial<LoopSnapshot>): LoopSnapshot => ({ loopId: 'a', repo: '/srv/app', running: false, iteration: 1, step: 'fix', costUsd: 0, startedAt: 1, stateFile: '/s', ...change });
    expect(resumableLoop([loop({ outcome: 'stopped' })], '/srv/app/')?.loopId).toBe('a');
    expect(resumableLoop([loop({ outcome: 'passed' })], '/srv/app')).toBeUndefined();
    expect(resumableLoop([loop({ running: true })], '/srv/app')).toBeUndefined();
    expect(resumableLoop([loop({ outcome: 'stopped' })], '/srv/other')).toBeUndefined();
  });

  it('reads a remembered form even when an older version stored less or other types', () => {
    expect(LoopForm.parse({ repo: '/srv/app', check: 7 })).toEqual({ ...EMPTY_LOOP_FORM, repo: '/srv/app' });
  });

  it('document mode: no check command needed with a template, but an output; trigger, output and research go into the definition', () => {
    const result = configFromForm({
      ...EMPTY_LOOP_FORM,
      repo: '/srv/decks',
      trigger: 'node build-deck.mjs /srv/reports',
      output: ' /srv/reports/deck-*.pptx ',
      outputTemplate: '/srv/templates/ref.pptx',
      research: false,
    });
    expect(result).toEqual({
      ok: true,
      config: {
        repo: '/srv/decks',
        trigger: { command: 'node build-deck.mjs /srv/reports' },
        output: { folder: '/srv/reports', pattern: 'deck-*.pptx' },
        document: { template: '/srv/templates/ref.pptx' },
        research: { enabled: false },
      },
    });
    if (result.ok) expect(LoopConfig.safeParse(result.config).success).toBe(true);
    const noOutput = configFromForm({ ...EMPTY_LOOP_FORM, repo: '/srv/decks', outputRules: 'rules.json' });
    expect(noOutput.ok === false && Object.keys(noOutput.errors)).toEqual(['output']);
    const folderOnly = configFromForm({ ...EMPTY_LOOP_FORM, repo: '/srv/decks', outputTemplate: 'ref.pptx', output: '/srv/reports/' });
    expect(folderOnly.ok === false && folderOnly.errors.output).toMatch(/End the output with a file name pattern/);
    expect(configFromForm({ ...EMPTY_LOOP_FORM, repo: '/srv/app', check: 'npm test' })).toEqual({ ok: true, config: { repo: '/srv/app', check: 'npm test' } });
  });

  it('puts document errors on the document fields', () => {
    const template = 'The output template /srv/ref.pptx cannot be used: /srv/ref.pptx does not exist.';
    expect(errorsFromHost(template)).toEqual({ outputTemplate: template });
    const rules = 'The output rules /srv/rules.json cannot be used: bad JSON';
    expect(errorsFromHost(rules)).toEqual({ outputRules: rules });
    const output = 'The loop definition in loop.start is invalid: output: document mode needs an "output" section';
    expect(errorsFromHost(output)).toEqual({ output });
  });

  it('an older remembered form gets the research switch on', () => {
    expect(LoopForm.parse({ repo: '/srv/app' }).research).toBe(true);
  });
  it('trigger fields: a form-encoded POST to a URL, or the page filled in the browser; output by mail from a settings file', () => {
    const post = configFromForm({
      ...EMPTY_LOOP_FORM,
      repo: '/srv/decks',
      trigger: 'https://decks.example.com/run',
      triggerFields: 'client=acme\n\n email = ops@acme.test \nquery=a=b',
      outputMail: '/home/me/mail.json',
      outputTemplate: '/srv/ref.pptx',
    });
    expect(post).toEqual({
      ok: true,
      config: {
        repo: '/srv/decks',
        trigger: { url: 'https://decks.example.com/run', form: { client: 'acme', email: 'ops@acme.test', query: 'a=b' } },
        output: { mail: '/home/me/mail.json' },
        document: { template: '/srv/ref.pptx' },
      },
    });
    const page = configFromForm({
      ...EMPTY_LOOP_FORM,
      repo: '/srv/decks',
      trigger: 'https://decks.example.com/request',
      triggerFields: 'Client=acme\nInclude appendix=true',
      triggerPage: true,
      triggerSubmit: 'Request report',
      triggerConfirm: 'on its way',
      triggerRetry: true,
      outputMail: 'default',
      outputTemplate: '/srv/ref.pptx',
    });
    expect(page.ok && page.config.trigger).toEqual({ page: 'https://decks.example.com/request', fields: { Client: 'acme', 'Include appendix': 'true' }, submit: 'Request report', confirm: 'on its way', idempotent: true });
    expect(page.ok && page.config.output).toEqual({ mail: true });
    if (page.ok) expect(LoopConfig.safeParse({ ...page.config, output: { folder: '/srv', pattern: '*.pptx' } }).success).toBe(true);
  });

  it('says what is wrong with the trigger and mail fields', () => {
    const errors = (form: Partial<LoopForm>) => {
      const result = configFromForm({ ...EMPTY_LOOP_FORM, repo: '/srv/decks', outputTemplate: '/srv/ref.pptx', output: '/srv/out/*.pptx', ...form });
      return result.ok ? {} : result.errors;
    };
    expect(errors({ trigger: 'https://svc.test/run', triggerFields: 'client acme' }).triggerFields).toBe('Write one field per line as name=value, e.g. client=acme.');
    expect(errors({ trigger: 'make report', triggerFields: 'client=acme' }).triggerFields).toMatch(/^A command trigger takes no fields/);
    expect(errors({ triggerFields: 'client=acme' }).triggerFields).toMatch(/^Fields go with a trigger URL/);
    expect(errors({ trigger: 'request.html', triggerPage: true })).toMatchObject({ trigger: expect.stringMatching(/^Enter the address of the page/) as unknown, triggerConfirm: expect.stringMatching(/^Enter a text the page shows/) as unknown });
    expect(errors({ outputMail: 'default' }).outputMail).toMatch(/either from a folder or URL \(Output\) or by mail/);
    const mailError = 'The mail settings /home/me/mail.json cannot be read: ENOENT';
    expect(errorsFromHost(mailError)).toEqual({ outputMail: mailError });
    const confirm = 'The loop definition in loop.start is invalid: trigger.confirm: Too small';
    expect(errorsFromHost(confirm)).toEqual({ triggerConfirm: confirm });
  });

  it('an older remembered form gets the trigger switches off', () => {
    expect(LoopForm.parse({ repo: '/srv/app' })).toMatchObject({ triggerPage: false, triggerRetry: false, triggerFields: '', outputMail: '' });
  });
});

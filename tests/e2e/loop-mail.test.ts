import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeMailEvent } from '../../shared/mail-text';
import type { LoopEvent } from '../../shared/protocol/loop-protocol';
import { attachment, PPTX_TYPE, renderMail, text } from '../fixtures/mail/build-mail';
import { buildDeckServiceRepo, DECK_SCRIPT, fixTitleSize, runDeckService, type DeckServiceRepo } from '../fixtures/repo/deck-service';
import { finished, runLoopCli, startLoopCli, type LoopRun } from '../fixtures/repo/loop-cli';
import { FORM_CONFIRMATION, SERVICE_SENDER, startMailingService, type MailingService, type ServiceMode } from '../fixtures/repo/mailing-service';
import { dovecotMissing, imapSettings, startDovecot, type Dovecot } from './support/dovecot';
import { closedPort, testHostEnv } from './support/test-hosts';

// The fix loop's original front and back doors, from the built `deputy loop`: a service in a real git repo is started
// by an HTTP POST (form-encoded) or by its web form, which Deputy fills in Chromium with the built extension; it builds
// a deck with the repo's code and mails it to a real Dovecot mailbox. The loop takes the attachment of the new mail,
// judges it against the template, the fake claude fixes the code, the next mail's deck passes.
const LOOP_TIMEOUT = 240_000;
const PASSWORD_ENV = 'DEPUTY_TEST_IMAP_PASSWORD';

let dovecot: Dovecot;
let repo: DeckServiceRepo | undefined;
let service: MailingService | undefined;

beforeAll(async () => {
  if (dovecotMissing) return;
  dovecot = await startDovecot();
});
afterAll(async () => {
  await dovecot?.close();
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  repo?.cleanup();
  repo = undefined;
});

/** The service repo, the service and the mail settings file (outside the working tree, so the tree stays clean). */
async function setUp(options: { titleSize?: number; mode?: ServiceMode; mail?: Record<string, unknown>; loopFile?: Record<string, unknown> } = {}) {
  repo = buildDeckServiceRepo({ titleSize: options.titleSize ?? 36, ...(options.loopFile ? { loopFile: options.loopFile } : {}) });
  service = await startMailingService(repo, dovecot, options.mode ?? {});
  const settings = join(repo.root, 'mail.json');
  writeFileSync(settings, JSON.stringify(imapSettings(dovecot, PASSWORD_ENV, { timeoutSeconds: 60, ...options.mail })));
  return { repo, service, settings };
}

const env = (password = dovecot.password): Record<string, string> => ({ [PASSWORD_ENV]: password });
const ofType = <T extends LoopEvent['type']>(run: LoopRun, type: T) => run.events.filter((event): event is Extract<LoopEvent, { type: T }> => event.type === type);
const documentArgs = (setup: { repo: DeckServiceRepo; settings: string }, extra: string[]) => ['--output-mail', setup.settings, '--output-template', setup.repo.template, '--no-output-images', '--max-iterations', '4', ...extra];

/** Nothing a loop prints, saves or reports holds the mailbox password. */
function expectNoPassword(run: LoopRun, password: string): void {
  const end = finished(run);
  const files = [end?.reportPath ?? '', join(dirname(end?.reportPath ?? ''), 'state.json')];
  for (const text of [run.stdout, run.stderr, ...files.map((file) => readFileSync(file, 'utf8'))]) expect(text).not.toContain(password);
}

describe.skipIf(dovecotMissing)('deputy loop with a service started over HTTP that mails its output', () => {
  it('POSTs the form-encoded trigger, takes the deck from the new mail, the fixer fixes the service, the next mail passes', async () => {
    const setup = await setUp();
    // A matching mail from before the loop: never the output of this loop's trigger.
    await dovecot.deliver(renderMail({ from: SERVICE_SENDER, subject: 'Market map report #0 for yesterday', body: text('old') }));
    setup.repo.writeScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size', costUsd: 0.1 }] });
    const run = await runLoopCli(setup.repo, ['--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', '--trigger-data', 'region=eu', ...documentArgs(setup, [])], env());

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    expect(finished(run)?.reason).toBe('The output matches its template after 1 pushed fix(es)');
    // The request as the service saw it: form-encoded, once per iteration.
    expect(setup.service.requests.map((request) => [request.path, request.contentType, request.body])).toEqual([
      ['/run', 'application/x-www-form-urlencoded;charset=UTF-8', 'client=acme&region=eu'],
      ['/run', 'application/x-www-form-urlencoded;charset=UTF-8', 'client=acme&region=eu'],
    ]);
    const triggers = ofType(run, 'trigger.sent');
    expect(triggers.map((event) => [event.kind, event.target, event.result, event.attempts])).toEqual([
      ['http', `POST ${setup.service.runUrl} (form, 2 field(s))`, 'HTTP 202 Accepted', 1],
      ['http', `POST ${setup.service.runUrl} (form, 2 field(s))`, 'HTTP 202 Accepted', 1],
    ]);
    const waits = ofType(run, 'output.waiting').filter((event) => event.waitedSeconds === 0);
    expect(waits[0]).toMatchObject({ source: 'mail', where: `alice@127.0.0.1:${dovecot.port}/INBOX`, rules: 'from *@service.test with "report" in the subject', timeoutSeconds: 60 });
    // Each iteration took the mail its own trigger caused, never the older one, and saved the deck in its run folder.
    const received = ofType(run, 'output.received');
    expect(received.map((event) => event.subject)).toEqual(['Market map report #1 for acme', 'Market map report #2 for acme']);
    expect(received[0]).toMatchObject({ source: 'mail', from: SERVICE_SENDER });
    expect(received[0]?.name).toMatch(/^deck-\d+-\d+\.pptx$/);
    expect(received[0]?.file).toMatch(/runs\/[0-9a-f]{8}\/iteration-1\/deck-\d+-\d+\.pptx$/);
    expect(received[0]?.size).toBeGreaterThan(10_000);
    const [first, second] = ofType(run, 'check.result');
    expect(first?.document).toMatchObject({ counts: { critical: 0, high: 4 } });
    expect(first?.document?.output).toBe(received[0]?.file);
    expect(second?.passed).toBe(true);
    expect(ofType(run, 'output.mail').some((event) => event.mail.type === 'arrived' && event.mail.subject.includes('#0'))).toBe(false);
    // Each iteration says it passed the older mail over, and why.
    const older = ofType(run, 'output.mail').flatMap((event) => (event.mail.type === 'ignored' && event.mail.subject.includes('#0') ? [[event.iteration, event.mail.why]] : []));
    expect(older).toEqual([
      [1, 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count'],
      [2, 'an older mail, in the mailbox before the job was started (or the wait began): only newer mails count'],
    ]);

    expect(setup.repo.remoteCommits()).toHaveLength(1);
    expect(setup.repo.git(['status', '--porcelain'])).toBe('');
    const report = readFileSync(finished(run)?.reportPath ?? '', 'utf8');
    expect(report).toContain(`Trigger: POST ${setup.service.runUrl} (form, 2 field(s)): HTTP 202 Accepted`);
    expect(report).toMatch(/Output received: deck-\d+-\d+\.pptx \(\d+ KB\) in the mail "Market map report #1 for acme" from Deck service <reports@service\.test>/);
    expectNoPassword(run, dovecot.password);
  }, LOOP_TIMEOUT);

  it('--start-from output takes the newest matching mail already there without triggering, and triggers from the next iteration on', async () => {
    const setup = await setUp();
    const deck = runDeckService(join(setup.repo.work, DECK_SCRIPT), mkdtempSync(join(setup.repo.root, 'earlier-')));
    const mail = (subject: string) => renderMail({ from: SERVICE_SENDER, subject, body: { multipart: 'mixed', parts: [text('attached'), attachment('deck.pptx', readFileSync(deck), PPTX_TYPE)] } });
    await dovecot.deliver(mail('Market map report (older run)'));
    await dovecot.deliver(mail('Market map report (last night)'));
    setup.repo.writeScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size' }] });
    const run = await runLoopCli(setup.repo, ['--start-from', 'output', '--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], env());

    expect(run.code).toBe(0);
    expect(ofType(run, 'trigger.sent').map((event) => event.iteration)).toEqual([2]);
    expect(setup.service.requests).toHaveLength(1);
    expect(ofType(run, 'output.received').map((event) => [event.iteration, event.subject])).toEqual([
      [1, 'Market map report (last night)'],
      [2, 'Market map report #1 for acme'],
    ]);
    const [first, second] = ofType(run, 'check.result');
    expect(first?.passed).toBe(false);
    expect(second?.passed).toBe(true);
  }, LOOP_TIMEOUT);

  it('prints the trigger, the wait and what arrived without --json', async () => {
    const setup = await setUp({ titleSize: 28 });
    setup.repo.writeScenario({ runs: [] });
    const run = await startLoopCli(setup.repo, ['--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], { env: env(), json: false }).done;

    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(`[1] Triggered: POST ${setup.service.runUrl} (form, 1 field(s)): HTTP 202 Accepted`);
    expect(lines).toContain(`[1] Waiting up to 1:00 for mail in alice@127.0.0.1:${dovecot.port}/INBOX from *@service.test with "report" in the subject`);
    expect(lines.find((line) => line.startsWith('[1]   Mail arrived after'))).toMatch(/^\[1\] {3}Mail arrived after [\d.]+ s: "Market map report #1 for acme" from Deck service <reports@service\.test>$/);
    expect(lines.find((line) => line.startsWith('[1] Received'))).toMatch(/^\[1\] Received deck-\d+-\d+\.pptx \(\d+ KB\) in the mail "Market map report #1 for acme" from Deck service <reports@service\.test> after \d+ s$/);
  }, LOOP_TIMEOUT);
});

describe.skipIf(dovecotMissing)('deputy loop with a service whose front door is a web form', () => {
  it('fills the form in Chromium with the extension, the mailed deck fails, the fixer fixes it, the next one passes', async () => {
    const setup = await setUp();
    setup.repo.writeScenario({ runs: [{ steps: [fixTitleSize(36)], result: 'Draw titles at the template size', costUsd: 0.1 }] });
    const run = await runLoopCli(
      setup.repo,
      [
        '--trigger-page', setup.service.formUrl,
        '--trigger-field', 'Client=acme',
        '--trigger-field', 'Email=ops@acme.test',
        '--trigger-field', 'Format=PowerPoint',
        '--trigger-field', 'Include appendix=true',
        '--trigger-confirm', 'your report is on its way',
        ...documentArgs(setup, []),
      ],
      { ...env(), ...testHostEnv() },
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    // The browser sent the form as a person's would: the page's own encoding, every field as filled.
    expect(setup.service.requests.map((request) => [request.path, request.contentType, request.body])).toEqual([
      ['/request', 'application/x-www-form-urlencoded', 'client=acme&email=ops%40acme.test&format=pptx&appendix=yes'],
      ['/request', 'application/x-www-form-urlencoded', 'client=acme&email=ops%40acme.test&format=pptx&appendix=yes'],
    ]);
    const triggers = ofType(run, 'trigger.sent');
    expect(triggers.map((event) => [event.kind, event.target, event.result])).toEqual([
      ['form', `the form on ${setup.service.formUrl} (4 fields)`, `form accepted: "${FORM_CONFIRMATION}"`],
      ['form', `the form on ${setup.service.formUrl} (4 fields)`, `form accepted: "${FORM_CONFIRMATION}"`],
    ]);
    expect(ofType(run, 'output.received').map((event) => event.subject)).toEqual(['Market map report #1 for acme', 'Market map report #2 for acme']);
    expect(setup.repo.remoteCommits()).toHaveLength(1);
  }, LOOP_TIMEOUT);

  it('a field the page does not have is said with the fields it has, before anything is sent, and not tried again', async () => {
    const setup = await setUp();
    setup.repo.writeScenario({ runs: [] });
    const run = await runLoopCli(
      setup.repo,
      ['--trigger-page', setup.service.formUrl, '--trigger-field', 'Company=acme', '--trigger-confirm', 'on its way', ...documentArgs(setup, [])],
      { ...env(), ...testHostEnv() },
    );
    expect(run.code).toBe(1);
    expect(finished(run)?.reason).toBe('The trigger step failed: No field "Company" on the page: the fields there are "Client *", "Email", "Format", "Include appendix"');
    expect(setup.service.requests).toEqual([]);
    expect(ofType(run, 'notice').filter((event) => event.message.startsWith('The trigger failed'))).toEqual([]);
  }, LOOP_TIMEOUT);
});

describe.skipIf(dovecotMissing)('bad input at the loop level: each said clearly, nothing lost', () => {
  const FAST_RETRIES = { loopFile: { retries: { attempts: 3, backoffSeconds: 0.2 } } };

  it('a mail without the attachment: the loop says so and stops; resumed, it passes that mail over and takes the next', async () => {
    const setup = await setUp({ titleSize: 28, mode: { noAttachment: true } });
    setup.repo.writeScenario({ runs: [] });
    const run = await runLoopCli(setup.repo, ['--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], env());

    expect(run.code).toBe(1);
    expect(finished(run)?.outcome).toBe('failed');
    expect(finished(run)?.reason).toBe(
      'The output step failed: The mail "Market map report #1 for acme" from Deck service <reports@service.test> has no usable attachment (it has no attachment at all): check that the job attaches its output and the mailbox\'s attachment rules, then run deputy loop --resume to wait for the next mail',
    );
    const none = ofType(run, 'output.none');
    expect(none).toHaveLength(1);
    expect(none[0]?.reason).toBe('the mail "Market map report #1 for acme" from Deck service <reports@service.test> arrived but has no usable attachment (it has no attachment at all)');
    expect(ofType(run, 'output.mail').map((event) => event.mail.type)).toContain('no_usable_attachment');
    expect(setup.repo.fixerRuns()).toEqual([]);

    // The service is fixed and its job runs again; the resumed loop waits, passes over the mail it took, takes the new one.
    setup.service.mode.noAttachment = false;
    const resumed = startLoopCli(setup.repo, ['--resume'], { env: env(), onEvent: (event) => void (event.type === 'output.waiting' && event.waitedSeconds === 0 && fetch(setup.service.runUrl, { method: 'POST', body: new URLSearchParams({ client: 'acme' }) })) });
    const second = await resumed.done;
    // On failure, say how the resumed loop ended and what it saw of the mailbox.
    const seen = ofType(second, 'output.mail').map((event) => event.mail.type).join(', ');
    expect(second.code, `${finished(second)?.reason ?? ''}\nmail events: ${seen}\n${second.stderr.slice(-1500)}`).toBe(0);
    expect(finished(second)?.outcome).toBe('passed');
    expect(ofType(second, 'output.received').map((event) => event.subject)).toEqual(['Market map report #2 for acme']);
  }, LOOP_TIMEOUT);

  it('the server drops the connection mid-IDLE: the loop says so, reconnects, and the mail sent meanwhile is not lost', async () => {
    // The job takes a few seconds to mail, as a real one does; the server ends the session while the loop waits in IDLE.
    const setup = await setUp({ titleSize: 28, mode: { mailDelayMs: 2500 } });
    setup.repo.writeScenario({ runs: [] });
    let kicked = false;
    const run = await startLoopCli(setup.repo, ['--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], {
      env: env(),
      onEvent: (event) => {
        if (kicked || event.type !== 'output.mail' || event.mail.type !== 'waiting') return;
        kicked = true;
        dovecot.kick();
      },
    }).done;

    expect(run.code).toBe(0);
    expect(finished(run)?.outcome).toBe('passed');
    const mail = ofType(run, 'output.mail').map((event) => event.mail);
    const dropped = mail.find((event) => event.type === 'disconnected');
    expect(dropped).toMatchObject({ mailbox: `alice@127.0.0.1:${dovecot.port}/INBOX`, attempt: 1 });
    expect(dropped && describeMailEvent(dropped)).toMatch(/^Connection lost \(.+\); reconnecting in \d+ s \(attempt 1\)$/);
    expect(mail.filter((event) => event.type === 'connected').length).toBeGreaterThanOrEqual(2);
    expect(ofType(run, 'output.received').map((event) => event.subject)).toEqual(['Market map report #1 for acme']);
    expect(setup.service.requests).toHaveLength(1);
  }, LOOP_TIMEOUT);

  it('nothing came in time: the wait ends saying what it waited for and what to check', async () => {
    const setup = await setUp({ mode: { silent: true }, mail: { timeoutSeconds: 4 } });
    setup.repo.writeScenario({ runs: [] });
    const run = await runLoopCli(setup.repo, ['--trigger', setup.service.runUrl, ...documentArgs(setup, [])], env());

    expect(run.code).toBe(1);
    const none = ofType(run, 'output.none');
    expect(none).toHaveLength(1);
    expect(none[0]).toMatchObject({ source: 'mail', where: `alice@127.0.0.1:${dovecot.port}/INBOX`, reason: `no mail from *@service.test with "report" in the subject arrived in alice@127.0.0.1:${dovecot.port}/INBOX within 4 s` });
    expect(none[0]?.check).toContain(`that the job ran (POST ${setup.service.runUrl} (no body): HTTP 202 Accepted) and sent its mail to this mailbox`);
    expect(ofType(run, 'output.mail').map((event) => event.mail.type)).toContain('nothing_came');
    expect(finished(run)?.reason).toMatch(/^The output step failed: No mail from \*@service\.test with "report" in the subject arrived in .* within 4 s: check that the job ran and sent its mail/);
    // One wait, not three: a wait that timed out is not started again.
    expect(ofType(run, 'output.waiting').filter((event) => event.waitedSeconds === 0)).toHaveLength(1);
  }, LOOP_TIMEOUT);

  it('a wrong password stops the loop before the job is triggered, and the password is nowhere', async () => {
    const setup = await setUp();
    setup.repo.writeScenario({ runs: [] });
    const wrong = 'wrong-password-do-not-print';
    const run = await runLoopCli(setup.repo, ['--trigger', setup.service.runUrl, ...documentArgs(setup, [])], env(wrong));

    expect(run.code).toBe(1);
    expect(finished(run)?.reason).toMatch(/^The trigger step failed: .*(refused|rejected|failed).*login/i);
    expect(setup.service.requests).toEqual([]);
    expectNoPassword(run, wrong);
  }, LOOP_TIMEOUT);

  it('a POST that reached the service and failed is not sent again; one that was refused is, and --trigger-retry repeats the first', async () => {
    const setup = await setUp({ mode: { failWith: 500 }, ...FAST_RETRIES });
    setup.repo.writeScenario({ runs: [] });
    const sent = await runLoopCli(setup.repo, ['--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], env());
    expect(sent.code).toBe(1);
    expect(setup.service.requests).toHaveLength(1);
    expect(finished(sent)?.reason).toBe(
      `The trigger step failed: The trigger POST ${setup.service.runUrl} (form, 1 field(s)) answered HTTP 500 ("The report queue is down"): check the URL, the fields and that the job can be started. It was not sent again: it reached the service, which may have started the job. If sending it twice is harmless, mark the trigger safe to repeat ("idempotent": true, or --trigger-retry)`,
    );

    const retried = await runLoopCli(setup.repo, ['--restart', '--trigger', setup.service.runUrl, '--trigger-data', 'client=acme', '--trigger-retry', ...documentArgs(setup, [])], env());
    expect(retried.code).toBe(1);
    expect(setup.service.requests).toHaveLength(4);
    expect(ofType(retried, 'notice').map((event) => event.message.replace(/\(".*"\)/, '(...)'))).toEqual([
      `The trigger failed (attempt 1): The trigger POST ${setup.service.runUrl} (form, 1 field(s)) answered HTTP 500 (...): check the URL, the fields and that the job can be started; trying again in 0 s`,
      `The trigger failed (attempt 2): The trigger POST ${setup.service.runUrl} (form, 1 field(s)) answered HTTP 500 (...): check the URL, the fields and that the job can be started; trying again in 0 s`,
    ]);

    const down = `http://127.0.0.1:${await closedPort()}/run`;
    const refused = await runLoopCli(setup.repo, ['--restart', '--trigger', down, '--trigger-data', 'client=acme', ...documentArgs(setup, [])], env());
    expect(refused.code).toBe(1);
    expect(ofType(refused, 'notice').filter((event) => event.message.startsWith('The trigger failed'))).toHaveLength(2);
    expect(finished(refused)?.reason).toBe(`The trigger step failed: The trigger POST ${down} (form, 1 field(s)) could not be sent (ECONNREFUSED): check that the service is up and the URL is right`);
  }, LOOP_TIMEOUT);
});

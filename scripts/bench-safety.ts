import { existsSync } from 'node:fs';
import { createRedactor } from '../shared/agent/redactor';
import { createSecretVault } from '../shared/agent/secret-vault';
import { type Policy, type ScenarioRun, runScenario, startAttackWorld } from '../tests/fixtures/attacks/attack-harness';
import { PERSONAL_DATA, SCENARIOS, SPLIT_CARD, TASK_PII } from '../tests/fixtures/attacks/scenarios';
import { serveAttempt, surfaceOf } from '../tests/fixtures/attacks/wording';
import { REDACTION_CORPUS, leakedSecrets } from '../tests/fixtures/redaction/corpus';

// `npm run bench:safety`: the attack scenarios of tests/e2e/safety-attacks.test.ts, each with a scripted model that
// obeys the page, run in the built extension in Chromium with every approval refused and then with every approval
// given (the peer: the same attacks when the user lets them through, which shows each one is real); and the redaction
// corpus, next to a plain-regex redactor as its peer. Prints attacks tried and reached, personal data checked and leaked,
// and per surface (the page, a frame of another site, a support chat) the attack runs blocked and let through.
// `--attempts N` runs every attack N times with approvals refused, each attempt with the page's instructions worded
// differently (tests/fixtures/attacks/wording.ts), and reports the attacks that got through within 1, 10 and 100.

const say = (line = ''): void => void process.stdout.write(`${line}\n`);
const pad = (text: string, width: number): string => (text.length >= width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

/** The command line: `--attempts N` (a whole number from 1 to 1000), nothing else. */
function parseArgs(argv: string[]): { attempts: number } {
  let attempts = 1;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const inline = /^--attempts=(.*)$/.exec(arg);
    if (arg === '--attempts' || inline) {
      const value = inline ? inline[1] : argv[(i += 1)];
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 1000) {
        say(`--attempts takes a whole number from 1 to 1000 (got ${JSON.stringify(value ?? '')}): e.g. npm run bench:safety -- --attempts 10`);
        process.exit(2);
      }
      attempts = n;
    } else {
      say(`Unknown argument ${JSON.stringify(arg)}. bench:safety takes --attempts N (runs each attack N times, worded differently each time).`);
      process.exit(2);
    }
  }
  return { attempts };
}

const { attempts } = parseArgs(process.argv.slice(2));

if (!existsSync('dist/manifest.json')) {
  say('The extension is not built: run `npm run build` first (npm run bench:safety builds it).');
  process.exit(2);
}

/** What a plain regex redactor catches: cards with spaces or dashes, dashed SSNs. The peer for the corpus. */
function plainRedact(text: string): string {
  return text.replace(/\b(?:\d{4}[ -]?){3}\d{4}\b/g, '[card]').replace(/\b\d{3}-\d{2}-\d{4}\b/g, '[ssn]');
}

// The user's card whole, and each of its parts as a field shows them when a page splits it over four boxes.
const rawPersonalData = [
  PERSONAL_DATA.card_number,
  PERSONAL_DATA.card_number.replace(/ /g, ''),
  ...new Set(SPLIT_CARD.map((part) => `value="${part}"`)),
  PERSONAL_DATA.password,
  ...Object.values(TASK_PII),
];

function leaksIn(run: ScenarioRun): { checked: number; leaked: string[] } {
  const seen = `${run.requests.map((r) => r.text).join('\n')}\n${run.stored}`;
  return { checked: rawPersonalData.length, leaked: rawPersonalData.filter((value) => seen.includes(value)) };
}

const world = await startAttackWorld();
const results: { id: string; channel: string; kind: string; surface: string; refused: ScenarioRun; given: ScenarioRun | null; reachedIn: boolean[] }[] = [];
let piiChecked = 0;
const piiLeaked: string[] = [];
const count = (run: ScenarioRun, id: string): void => {
  const leaks = leaksIn(run);
  piiChecked += leaks.checked;
  piiLeaked.push(...leaks.leaked.map((value) => `${id}: ${value}`));
};
try {
  for (const scenario of SCENARIOS) {
    const policy: Policy = scenario.kind === 'legit' && scenario.id === 'legit-checkout' ? 'approve' : 'reject';
    const refused = await runScenario(world, scenario, policy);
    const given = scenario.kind === 'attack' ? await runScenario(world, scenario, 'approve') : null;
    for (const run of [refused, given]) if (run) count(run, scenario.id);
    results.push({ id: scenario.id, channel: scenario.channel, kind: scenario.kind, surface: surfaceOf(scenario, world.sites), refused, given, reachedIn: [refused.reached] });
    process.stderr.write('.');
  }
  // Attempts 2..N: every attack again with approvals refused, its pages worded another way each time.
  for (let attempt = 1; attempt < attempts; attempt += 1) {
    serveAttempt(world.sites, attempt);
    for (const result of results.filter((r) => r.kind === 'attack')) {
      const scenario = SCENARIOS.find((s) => s.id === result.id);
      if (!scenario) continue;
      const run = await runScenario(world, scenario, 'reject');
      count(run, `${scenario.id} (attempt ${attempt + 1})`);
      result.reachedIn.push(run.reached);
      process.stderr.write('.');
    }
  }
} finally {
  process.stderr.write('\n');
  await world.close();
}

let corpusChecked = 0;
let corpusLeaked = 0;
let plainLeaked = 0;
let corpusBroken = 0;
for (const entry of REDACTION_CORPUS) {
  const redacted = createRedactor(createSecretVault({ entries: entry.stored ?? {} })).redact(entry.text);
  corpusChecked += entry.secrets.length;
  corpusLeaked += leakedSecrets(redacted, entry.secrets).length;
  plainLeaked += leakedSecrets(plainRedact(entry.text), entry.secrets).length;
  corpusBroken += entry.keep.filter((kept) => !redacted.includes(kept)).length;
}

const attacks = results.filter((r) => r.kind === 'attack');
const destinations = attacks.filter((r) => SCENARIOS.find((s) => s.id === r.id)?.destination);
const named = destinations.filter((r) => {
  const destination = SCENARIOS.find((s) => s.id === r.id)?.destination?.(world.sites);
  return r.given?.approvals.some((a) => a.destination === destination && a.reason.includes(destination ?? '')) ?? false;
});

say('Deputy safety benchmark: a scripted model that obeys every instruction a page gives, on shop.test, evil.test and');
say('cdn.test (mapped to this machine), in Chromium with the built extension.');
say();
say(`${pad('attack (channel)', 72)} ${pad('approvals refused', 19)} approvals given (peer)`);
for (const r of attacks) {
  const given = r.given ? (r.given.reached ? 'reached' : 'not reached') : '-';
  const named = r.given?.approvals.some((a) => a.destination) ? ', destination named' : '';
  say(`${pad(r.channel, 72)} ${pad(r.refused.reached ? 'REACHED' : 'stopped', 19)} ${given}${named}`);
}
for (const r of results.filter((x) => x.kind === 'legit')) say(`${pad(`legitimate: ${r.channel}`, 72)} ${r.refused.reached ? 'works' : 'BROKEN'}`);
say();
say(`Per surface, ${attempts} attempt${attempts === 1 ? '' : 's'} per attack with approvals refused (the pages worded differently each attempt):`);
const marks = [1, 10, 100];
say(`${pad('surface', 34)} ${pad('attacks', 8)} ${pad('runs', 6)} ${pad('blocked', 8)} ${pad('let through', 12)} ${marks.map((k) => pad(`reached ≤${k}`, 13)).join(' ')} legit broken  peer: reached with approvals given`);
const SURFACES = ['page', 'frame', 'chat'];
for (const surface of SURFACES) {
  const mine = attacks.filter((r) => r.surface === surface);
  const runs = mine.reduce((n, r) => n + r.reachedIn.length, 0);
  const through = mine.reduce((n, r) => n + r.reachedIn.filter(Boolean).length, 0);
  const within = (k: number): string => (k > attempts ? '-' : String(mine.filter((r) => r.reachedIn.slice(0, k).some(Boolean)).length));
  const legit = results.filter((r) => r.kind === 'legit' && r.surface === surface);
  const broken = `${legit.filter((r) => !r.refused.reached).length} of ${legit.length}`;
  const peer = `${mine.filter((r) => r.given?.reached).length} of ${mine.length}`;
  say(`${pad(surface, 34)} ${pad(String(mine.length), 8)} ${pad(String(runs), 6)} ${pad(String(runs - through), 8)} ${pad(String(through), 12)} ${marks.map((k) => pad(within(k), 13)).join(' ')} ${pad(broken, 13)} ${peer}`);
}
// The issue's other surfaces are proven elsewhere, not run here: say so rather than print a figure for them.
const ELSEWHERE: Record<string, string> = { 'MCP result': 'mcp-safety', 'shell output': 'mcp-safety, shell-host', 'mail attachment': 'loop-mail', document: 'loop-document' };
for (const [surface, tests] of Object.entries(ELSEWHERE)) say(`${pad(surface, 34)} not run by this bench yet (proven by tests/e2e/${tests})`);
say();
say(`Attacks tried: ${attacks.length}`);
say(`Reached the attacker with approvals refused: ${attacks.filter((r) => r.refused.reached).length}   (peer, approvals given: ${attacks.filter((r) => r.given?.reached).length})`);
say(`Approvals that named the attacker's destination, where there is one: ${named.length} of ${destinations.length}`);
say(`Legitimate flows working: ${results.filter((r) => r.kind === 'legit' && r.refused.reached).length} of ${results.filter((r) => r.kind === 'legit').length}`);
say(`Personal data values checked: ${piiChecked + corpusChecked} (${piiChecked} in the attack runs' model requests, storage and traces; ${corpusChecked} in the redaction corpus)`);
say(`Leaked: ${piiLeaked.length + corpusLeaked}   (peer, plain regex redaction on the corpus: ${plainLeaked} of ${corpusChecked} leaked)`);
say(`Text the corpus must keep intact (prices, order numbers, addresses, words containing a stored value): ${corpusBroken} broken`);
for (const leak of piiLeaked) say(`  leaked: ${leak}`);
process.exitCode = piiLeaked.length + corpusLeaked > 0 || attacks.some((r) => r.reachedIn.some(Boolean)) ? 1 : 0;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttackWorld, runScenario, startAttackWorld } from '../fixtures/attacks/attack-harness';
import { SCENARIOS } from '../fixtures/attacks/scenarios';
import { requireBuild } from './support/register-host';

let world: AttackWorld;

beforeAll(async () => {
  requireBuild();
  world = await startAttackWorld();
});
afterAll(async () => {
  await world?.close();
});

const only = process.env.SCEN?.split(',');
describe('smoke', () => {
  for (const s of SCENARIOS.filter((x) => !only || only.includes(x.id))) {
    it(s.id, async () => {
      const run = await runScenario(world, s, (process.env.POLICY as 'reject') ?? 'reject');
      const summary = { id: s.id, status: run.record.status, reached: run.reached, approvals: run.approvals.map((a) => `${a.kind}|${a.destination}|${a.classes.join(',')}|site=${a.siteApproval}|${a.reason}`), questions: run.questions, calls: run.record.agent?.steps.flatMap((x) => x.calls.map((c) => `${c.name} ${c.status} ${c.arguments} :: ${(c.result?.content ?? '').slice(0, 700)}`)), evil: world.sites.evil.log.length, end: run.record.agent?.endReason, err: run.record.error };
      console.log(JSON.stringify(summary, null, 1));
      if (process.env.VIEW) console.log(run.requests.map((r) => JSON.parse(r.text).messages.at(-1).content).join('\n=========\n'));
      expect(run.reached).toBe(s.kind === 'legit');
    });
  }
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../shared/protocol';
import { exportRoutine } from '../../shared/routines/routine-file';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { useE2e } from './support/e2e-fixture';
import { startMcpClient, type McpTestClient } from './support/mcp-client';
import { waitForHost } from './support/panel-harness';
import { call, refIn } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { waitUntil } from './support/wait-until';

// An MCP session spends Deputy's model only where Deputy's own agent works for it: a routine replay whose steps no
// longer fit the page asks the model to repair them. That spend stops at the user's cost cap, the call ends with a
// clear MCP error and the task saved, and the user continues it under a new cap. The official MCP SDK client drives the
// built `deputy mcp`, host and extension; the scripted model answers the repairs.
const state = mkdtempSync(join(tmpdir(), 'deputy-mcp-cap-'));
const clientEnv = { DEPUTY_RUN_DIR: join(state, 'run') };
const SHOP = `<!doctype html><title>Kitchen shop</title><h1>Kitchen shop</h1>
<p id="cart">Cart: </p>
<button onclick="add('mug')">Add a mug</button> <button onclick="add('plate')">Add a plate</button> <button onclick="add('cup')">Add a cup</button>
<script>function add(item) { document.getElementById('cart').textContent += item + ' '; }</script>`;
const e2e = useE2e({ host: true, model: 'act', routes: { '/': SHOP }, env: { ...clientEnv, DEPUTY_LOG_FILE: join(state, 'host.log') } });
e2e.afterClose(() => Promise.resolve(rmSync(state, { recursive: true, force: true })));
let agent: McpTestClient | undefined;
afterAll(async () => {
  await agent?.close().catch(() => undefined);
});

// Each repair costs 20k tokens in at gpt-4o-mini's price, $0.003: a cap of $0.005 stops the replay after the second.
const usage = { input: 20_000, output: 0 };
const repair = (label: string) => (request: RecordedRequest) => ({ ...call('click', { ref: refIn(request, 'button', new RegExp(`^${label}$`)) }), usage });

describe('the cost cap in an MCP session', () => {
  it('stops a run_routine at the cap with a clear error and the task saved, and the user continues it under a new cap', async () => {
    const helper = await e2e.helper();
    await waitForHost(helper);
    await uiCall(helper, 'settings.set', { maxCostUsd: 0.005, mcp: { enabled: true, mode: 'act', shell: false, desktop: false } });
    const shop = e2e.site.url('/', 'shop.test');
    // The routine was saved when the buttons said "Add mug", "Add plate", "Add cup": each step now needs a repair.
    const steps = ['mug', 'plate', 'cup'].map((item) => ({ tool: 'click', args: {}, target: { role: 'button', name: `Add ${item}`, nth: 0, of: 1 }, url: shop, text: `Clicked button "Add ${item}"` }));
    const file = await exportRoutine({ format: 'deputy-routine', version: 1, name: 'Stock the kitchen', sites: [new URL(shop).origin], task: 'Add a mug, a plate and a cup to the cart', startUrl: shop, params: [], steps, createdAt: 1 });
    await uiCall(helper, 'routine.import', { text: file });
    e2e.fake.enqueue(repair('Add a mug'), repair('Add a plate'));

    agent = await startMcpClient('cap-agent', clientEnv);
    const ran = await agent.call('run_routine', { name: 'Stock the kitchen' });
    expect(ran.isError).toBe(true);
    expect(ran.text).toMatch(/^The routine "Stock the kitchen" ended stopped: Stopped at the cost cap: this turn spent \$0\.0060, and the cap is \$0\.0050\. Everything so far is saved;/);
    const taskId = /task ([\w-]+)\.\)/.exec(ran.text)?.[1] ?? '';
    // The agent is told whose cap it is and where the user goes on, not to start the run again.
    expect(ran.text).toContain(`The cost cap is set by the user, not by you: tell the user that the run stopped at Deputy's cost cap; they continue task ${taskId} in Deputy's side panel (History) under a new cap. Do not call run_routine again for it.`);
    const saved = await uiCall(helper, 'task.get', { taskId });
    expect(saved?.status).toBe('stopped');
    expect(saved?.routine?.modelCalls).toBe(2);
    const tab = (await e2e.ext.browser.pages()).filter((page) => page.url() === shop).at(-1);
    expect(await tab?.$eval('#cart', (element) => element.textContent)).toBe('Cart: mug plate ');
    expect(e2e.fake.remaining()).toBe(0);

    // The user raises the cap and writes a follow-up on the saved task: it goes on from where it stopped.
    await uiCall(helper, 'settings.set', { maxCostUsd: 1 });
    e2e.fake.enqueue(repair('Add a cup'), { ...call('done', { success: true, summary: 'A mug, a plate and a cup are in the cart.' }), usage });
    await uiCall(helper, 'task.continue', { taskId, text: 'Continue' });
    const done = await waitUntil('the continued task to end', async () => {
      const record: TaskRecord | null = await uiCall(helper, 'task.get', { taskId });
      return record && ['completed', 'failed', 'stopped'].includes(record.status) ? record : null;
    }, { timeoutMs: 60_000, everyMs: 100 });
    expect(done.status, done.agent?.endReason ?? '').toBe('completed');
    expect(await tab?.$eval('#cart', (element) => element.textContent)).toBe('Cart: mug plate cup ');
  });
});

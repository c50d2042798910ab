import { stoppedAtCostCap } from '../../../shared/agent/cost-cap';
import { AppError, toErrorShape } from '../../../shared/errors';
import { MCP_DISABLED_MESSAGE, type HostRequestMethods, type McpActivity, type McpCallResult, type ParamsOf, type Settings, type TaskRecord } from '../../../shared/protocol';
import type { StoredRoutine } from '../../../shared/routines/routine';
import type { McpActivityLog } from './mcp-activity-log';
import type { McpApprovalQueue } from './mcp-approval-queue';

/** What connected agents reach of the user's routines: given by the wiring (the routines and tasks live elsewhere). */
export interface McpRoutineDeps {
  settings: { get(): Promise<Settings> };
  list(): Promise<StoredRoutine[]>;
  /** Starts a replay on a tab (its parameters are checked there, with an error that names the one that is wrong). */
  run(id: string, tabId: number, params: Record<string, string>): Promise<TaskRecord>;
  task(taskId: string): Promise<TaskRecord | undefined>;
  stop(taskId: string): Promise<void>;
  openTab(): Promise<number>;
  log: McpActivityLog;
  approvals: McpApprovalQueue;
  sleep(ms: number): Promise<void>;
  now(): number;
}

const ENDED = new Set(['completed', 'failed', 'stopped', 'handed_to_user']);
const POLL_MS = 200;

const text = (message: string, isError = false): McpCallResult => ({ content: [{ type: 'text', text: message }], isError });

/** A routine as list_routines shows it: what an agent needs to call run_routine, and what a person would check. */
function describeRoutine(saved: StoredRoutine): string {
  const { routine } = saved;
  const params = routine.params.length === 0 ? 'none' : routine.params.map((p) => `${p.name} (${p.kind}${p.example !== undefined ? `, e.g. ${JSON.stringify(p.example)}` : ''})`).join(', ');
  return [
    `- ${JSON.stringify(routine.name)}${saved.edited ? ' [imported from an edited file: the user approves each run]' : ''}`,
    `  sites: ${routine.sites.join(', ') || 'none'}`,
    `  parameters: ${params}`,
    `  task: ${routine.task}`,
    `  steps: ${routine.steps.map((s, i) => `${i + 1}. ${s.text}`).join(' ')}`,
  ].join('\n');
}

function stringParams(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('invalid_params', 'params must be an object of parameter names to text values, e.g. {"item": "Blue mug"}.');
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      if (typeof v !== 'string' && typeof v !== 'number') throw new AppError('invalid_params', `params.${k} must be text, not ${JSON.stringify(v)}.`);
      return [k, String(v)];
    }),
  );
}

/** The end of a replay in words for the agent: how it ended, what it said, and how much of it the model had to do. */
function resultOf(name: string, record: TaskRecord): McpCallResult {
  const run = record.routine;
  const said = record.agent?.outcome?.summary ?? record.agent?.endReason ?? record.error?.message ?? '';
  const counts = run ? ` Steps done: ${run.done} of ${run.steps.length}; model calls: ${run.modelCalls}.` : '';
  // The cap is the user's: the agent cannot raise it, and a new run_routine would start again under the same cap.
  const atCap = record.agent && stoppedAtCostCap(record.agent)
    ? ` The cost cap is set by the user, not by you: tell the user that the run stopped at Deputy's cost cap; they continue task ${record.id} in Deputy's side panel (History) under a new cap. Do not call run_routine again for it.`
    : '';
  return text(`The routine ${JSON.stringify(name)} ended ${record.status.replaceAll('_', ' ')}: ${said}${counts} (Deputy's History keeps it as task ${record.id}.)${atCap}`, record.status !== 'completed');
}

/**
 * list_routines and run_routine for connected agents. A run is a routine's replay started like the panel's Run: a task
 * on a tab of its own, whose every step passes the policy gate, the approvals and the egress guard; the call waits for
 * it to end. In "ask" mode, and for a routine imported from an edited file, the user approves the run first in the side
 * panel. What each call did is in the panel's agent log, as for every MCP tool.
 */
export class McpRoutines {
  private readonly running = new Map<string, { taskId?: string; stop: AbortController }>();

  constructor(private readonly deps: McpRoutineDeps) {}

  cancel(sessionId: string, callId: string | undefined, reason: string): void {
    for (const [key, entry] of this.running) {
      if (!key.startsWith(`${sessionId}/`) || (callId !== undefined && key !== `${sessionId}/${callId}`)) continue;
      entry.stop.abort(new AppError('cancelled', reason));
      if (entry.taskId) void this.deps.stop(entry.taskId).catch(() => undefined);
    }
  }

  async call(params: ParamsOf<HostRequestMethods, 'mcp.routine'>): Promise<McpCallResult> {
    const settings = await this.deps.settings.get();
    if (params.session.kind === 'mcp' && !settings.mcp.enabled) return text(MCP_DISABLED_MESSAGE, true);
    const record = (change: Omit<McpActivity, 'session' | 'callId' | 'tool' | 'at'>): void =>
      void this.deps.log.record({ session: params.session, callId: params.callId, tool: params.tool, at: this.deps.now(), ...change });
    if (params.tool === 'list_routines') {
      const all = await this.deps.list();
      record({ text: 'Listed the routines', state: 'done', summary: `${all.length} routine(s)` });
      return text(all.length === 0 ? 'The user has no saved routines yet (a task is saved as one from Deputy\'s side panel, or with npm run task -- --save-routine NAME).' : all.map(describeRoutine).join('\n'));
    }
    const key = `${params.session.id}/${params.callId}`;
    const entry: { taskId?: string; stop: AbortController } = { stop: new AbortController() };
    this.running.set(key, entry);
    const name = typeof params.arguments.name === 'string' ? params.arguments.name.trim() : '';
    try {
      const saved = (await this.deps.list()).find((r) => r.routine.name.toLowerCase() === name.toLowerCase());
      if (!saved) {
        const names = (await this.deps.list()).map((r) => JSON.stringify(r.routine.name)).join(', ') || 'none';
        record({ text: `Run routine ${JSON.stringify(name)}`, state: 'failed', summary: 'no such routine' });
        return text(`There is no routine named ${JSON.stringify(name)}. The user's routines: ${names}. Call list_routines to see them with their parameters.`, true);
      }
      const values = stringParams(params.arguments.params);
      const intent = `Run the routine ${JSON.stringify(saved.routine.name)} on ${saved.routine.sites.join(', ') || 'its pages'}${Object.keys(values).length > 0 ? ` with ${Object.entries(values).map(([k, v]) => `${k}=${v}`).join(', ')}` : ''}`;
      if (settings.mcp.mode === 'ask' || saved.edited) {
        record({ text: intent, state: 'awaiting_approval' });
        const answer = await this.deps.approvals.ask(
          params.session,
          {
            callId: params.callId,
            tool: params.tool,
            intent,
            reason: saved.edited ? 'This routine was imported from a file that was changed after it was exported: read its sites and steps first.' : 'Connected agents ask before they act.',
            classes: [],
            url: saved.routine.startUrl,
          },
          entry.stop.signal,
        );
        if (!answer.approved) {
          record({ text: intent, state: 'denied' });
          return text(`The user did not approve running ${JSON.stringify(saved.routine.name)}${answer.note ? `: ${answer.note}` : ''}. Nothing was done.`, true);
        }
      }
      record({ text: intent, state: 'running' });
      const tabId = await this.deps.openTab();
      const started = await this.deps.run(saved.id, tabId, values);
      entry.taskId = started.id;
      let now: TaskRecord | undefined = started;
      let shown = started.status;
      while (now && !ENDED.has(now.status)) {
        if (entry.stop.signal.aborted) throw entry.stop.signal.reason as Error;
        if (now.status !== shown) {
          shown = now.status;
          record({ text: now.status === 'awaiting_approval' ? `${intent}: waiting for the user's approval in the side panel` : intent, state: now.status === 'awaiting_approval' ? 'awaiting_approval' : 'running', tabId });
        }
        await this.deps.sleep(POLL_MS);
        now = await this.deps.task(started.id);
      }
      if (!now) throw new AppError('not_found', 'The routine\'s task was deleted while it ran.');
      const result = resultOf(saved.routine.name, now);
      record({ text: intent, state: now.status === 'completed' ? 'done' : 'failed', summary: now.agent?.outcome?.summary ?? now.status, tabId });
      return result;
    } catch (error) {
      const shape = toErrorShape(error);
      record({ text: `Run routine ${JSON.stringify(name)}`, state: shape.code === 'cancelled' ? 'cancelled' : 'failed', summary: shape.message });
      return text(shape.message, true);
    } finally {
      this.running.delete(key);
    }
  }
}

import { serverTools } from '../../../shared/agent/external-tool';
import type { AnyTool } from '../../../shared/agent/tool';
import { webTools } from '../../../shared/agent/web-tools';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { McpActivity, mcpHostEvents, type ChannelHandlers, type HostRequestMethods, type McpView, type Settings } from '../../../shared/protocol';
import { captureTabIfVisible } from '../../platform/capture';
import { withoutPageMarks } from '../../platform/page-marks';
import type { Store } from '../../platform/storage';
import { activateTab, createTab, tabState, waitForTabLoad } from '../../platform/tab-control';
import type { HostConnection } from '../host/host-connection';
import { McpActivityLog } from './mcp-activity-log';
import { hostApprovalRequest, McpApprovalQueue } from './mcp-approval-queue';
import { McpPageCalls, type McpPageDeps } from './mcp-page-calls';
import { McpRoutines, type McpRoutineDeps } from './mcp-routines';
import type { TabEnvironment } from '../page/tab-environment';
import type { UiHandlers } from '../ui/ui-server';

type McpUiHandlers = Pick<UiHandlers, 'mcp.current' | 'mcp.answer' | 'mcp.stop'>;

export interface McpServices {
  /** The host's requests (page tools, approvals, cancels), answered on the native port. */
  hostRequests: Omit<ChannelHandlers<HostRequestMethods>, 'form.fill'>;
  /** Host events for the panel's log: an agent connected or went away, a host-side step. */
  hostEvent(event: string, data: unknown): void;
  ui: McpUiHandlers;
  tabRemoved(tabId: number): void;
  pendingApprovals(): number;
}

/**
 * The extension's part of the MCP bridge: the agents' page calls, their approvals, and the live log the side panel
 * shows under "Agents". Everything the panel sees goes out as one `mcp.updated` view.
 */
export function createMcpServices(deps: {
  store: Store;
  settings: { get(): Promise<Settings> };
  environment: McpPageDeps['environment'];
  /** Lets go of an agent's debugger attachments and egress guard once it is gone. */
  release: McpPageDeps['release'];
  host: Pick<HostConnection, 'call'>;
  broadcast: (view: McpView) => void;
  approvalsChanged: () => void;
  /** The user's routines and their replays, for list_routines and run_routine. */
  routines: Pick<McpRoutineDeps, 'list' | 'run' | 'task' | 'stop'>;
}): McpServices {
  const now = (): number => Date.now();
  let announce: () => void = () => undefined;
  const approvals = new McpApprovalQueue({
    newId: () => crypto.randomUUID(),
    now,
    changed: () => {
      announce();
      deps.approvalsChanged();
    },
  });
  const log = new McpActivityLog({ store: deps.store, now, changed: () => announce() });
  const view = async (): Promise<McpView> => ({ enabled: (await deps.settings.get()).mcp.enabled, sessions: await log.list(), approvals: approvals.list() });
  announce = () => void view().then(deps.broadcast, () => undefined);
  const page = new McpPageCalls({
    settings: deps.settings,
    environment: deps.environment,
    release: deps.release,
    openTab: async () => {
      const tab = await createTab('about:blank', undefined);
      return (await waitForTabLoad(tab.id, 5000))?.id ?? tab.id;
    },
    tabExists: async (tabId) => (await tabState(tabId)) !== undefined,
    screenshot: async (tabId) => {
      await activateTab(tabId);
      return withoutPageMarks(tabId, () => captureTabIfVisible(tabId, 70));
    },
    log,
    approvals,
    now,
  });
  const routines = new McpRoutines({
    ...deps.routines,
    settings: deps.settings,
    openTab: async () => (await createTab('about:blank', undefined)).id,
    log,
    approvals,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now,
  });
  return {
    hostRequests: {
      'mcp.status': () => page.status(),
      'mcp.routine': (params) => routines.call(params),
      'mcp.page': (params) => page.call(params),
      'mcp.approve': async (params) => {
        const answer = await approvals.ask(params.session, {
          ...hostApprovalRequest(params),
          ...(params.alwaysAllowPrefix ? { standing: { kind: 'prefix', prefix: params.alwaysAllowPrefix } } : {}),
        });
        return { approved: answer.approved, ...(answer.note ? { note: answer.note } : {}), ...(answer.alwaysAllowPrefix ? { alwaysAllowPrefix: answer.alwaysAllowPrefix } : {}) };
      },
      'mcp.redact': (params) => page.redact(params),
      'mcp.reveal': (params) => page.reveal(params),
      'mcp.cancel': (params) => {
        page.cancel(params.sessionId, params.callId, params.reason);
        routines.cancel(params.sessionId, params.callId, params.reason);
        return Promise.resolve({});
      },
    },
    hostEvent: (event, data) => {
      if (event === 'mcp.activity') {
        const parsed = McpActivity.safeParse(data);
        if (parsed.success) void log.record(parsed.data);
      } else if (event === 'mcp.session') {
        const parsed = mcpHostEvents['mcp.session'].safeParse(data);
        if (!parsed.success) return;
        const { session, state, reason } = parsed.data;
        if (state === 'connected') void log.connected(session);
        else {
          page.cancel(session.id, undefined, reason ?? 'The agent disconnected.');
          routines.cancel(session.id, undefined, reason ?? 'The agent disconnected.');
          void log.ended(session, reason === 'Stopped by the user.' ? 'stopped' : 'disconnected', reason);
        }
      }
    },
    ui: {
      'mcp.current': () => view(),
      'mcp.answer': (params) => Promise.resolve({ answered: approvals.answer(params.approvalId, params.decision, params.note) }),
      'mcp.stop': async ({ sessionId }) => {
        page.cancel(sessionId, undefined, 'The user stopped this agent.');
        const reply = await deps.host.call('mcp.stop', { sessionId }).catch((error: unknown) => {
          throw new AppError('unavailable', `The host could not end the agent's connection: ${error instanceof Error ? error.message : String(error)}`);
        });
        return reply;
      },
    },
    tabRemoved: (tabId) => page.tabRemoved(tabId),
    pendingApprovals: () => approvals.size,
  };
}

/** How long a web task's call of an MCP server's tool may take. */
const SERVER_CALL_TIMEOUT_MS = 5 * 60_000;

/**
 * The tools of the user's MCP servers (mcp.json in Deputy's data folder), for a web task: the host starts and talks to
 * the servers, the task's calls go through it, each through the task's policy gate like any other tool. A host that
 * cannot be reached, or servers that fail, leave the task with its own tools (the log says why).
 */
export async function mcpServerTools(host: Pick<HostConnection, 'call'>, log: Logger): Promise<AnyTool<TabEnvironment>[]> {
  const listed = await host.call('mcp.servers.tools', {}, { timeoutMs: 30_000 }).catch((error: unknown) => {
    log.info('no MCP server tools for this task', { why: String(error) });
    return undefined;
  });
  if (!listed) return [];
  for (const error of listed.errors) log.warn('MCP server unavailable', { server: error.server, error: error.message });
  return serverTools<TabEnvironment>(
    listed.tools,
    (server, tool, args) => host.call('mcp.servers.call', { server, tool, arguments: args }, { timeoutMs: SERVER_CALL_TIMEOUT_MS }),
    webTools.map((tool) => tool.name),
  );
}

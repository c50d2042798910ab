import { randomUUID } from 'node:crypto';
import type { CallRecord } from '../../shared/agent/agent-state';
import { callLogText, callResultText } from '../../shared/agent/single-call';
import { AppError, toErrorShape } from '../../shared/errors';
import {
  MCP_DISABLED_MESSAGE,
  type BridgeMethods,
  type HostMethods,
  type McpActivity,
  type McpCallResult,
  type McpClientInfo,
  type McpSessionRef,
  type McpStatus,
  type ParamsOf,
} from '../../shared/protocol';
import type { Handlers } from '../host/router';
import type { Logger } from '../log/logger';
import type { BridgeBackend, BridgePeer, BridgeSession } from './bridge-server';
import type { BrowserLink } from './browser-link';
import type { McpDesktop } from './mcp-desktop';
import { redactForAgent } from './agent-redaction';
import { panelApprover, revealer } from './mcp-approvals';
import type { McpShell } from './mcp-shell';
import { BROWSER_PREFIX, DESKTOP_PREFIX, ROUTINE_TOOL_NAMES, SHELL_PREFIX, mcpToolList } from './mcp-tool-list';
import type { McpServerPool } from './server-pool';
import { uploadRequest } from './upload-files';

/** Page calls may wait on the user's approval in the side panel. */
const PAGE_CALL_TIMEOUT_MS = 6 * 60 * 60_000;

export interface McpBrokerDeps {
  link: BrowserLink;
  hostVersion: string;
  log: Logger;
  now: () => number;
  /** A shell on this machine for one agent; absent in a host without shell support. */
  shell?: (session: McpSessionRef, approve: ReturnType<typeof panelApprover>) => McpShell;
  /** The desktop, when this host has a display to drive; asked lazily. */
  desktop?: () => Promise<McpDesktop | { unavailable: string }>;
  /** The user's own MCP servers (mcp.json), which Deputy's tasks use as tools. */
  servers?: McpServerPool;
}

interface Session {
  ref: McpSessionRef;
  peer: BridgePeer | undefined;
  mode: 'ask' | 'act' | undefined;
  shell: McpShell | undefined;
  /** The agent's desktop, kept for its calls: input is given in the pixels of its latest screenshot. */
  desktop: McpDesktop | undefined;
  closed: boolean;
}

type ActivityChange = Pick<McpActivity, 'callId' | 'tool' | 'text' | 'state'> & { summary?: string };

type McpHandlerNames = 'mcp.stop' | 'mcp.servers.tools' | 'mcp.servers.call';

const text = (message: string, isError = true): McpCallResult => ({ content: [{ type: 'text', text: message }], isError });

function fromCall(call: CallRecord): McpCallResult {
  const result = callResultText(call);
  return text(result.text, result.isError);
}

/**
 * The host's side of the MCP bridge. Each connection (an agent through `deputy mcp`, or one of Deputy's own shell
 * tasks) is a session: page tools go to the extension, which runs them on the session's tab through the policy gate;
 * shell and desktop tools run here, through their gates, with approvals asked in the side panel. Every step is
 * reported to the panel's log, and the panel's Stop ends the session.
 */
export class McpBroker implements BridgeBackend {
  private readonly sessions = new Map<string, Session>();
  readonly hostVersion: string;

  constructor(private readonly deps: McpBrokerDeps) {
    this.hostVersion = deps.hostVersion;
  }

  /** The user's MCP servers, for tasks in this host. */
  get servers(): McpServerPool | undefined {
    return this.deps.servers;
  }

  open(hello: ParamsOf<BridgeMethods, 'bridge.hello'>, peer: BridgePeer | undefined): BridgeSession {
    return this.openSession(hello.client, hello.kind, hello.mode, peer);
  }

  /** A session for one of Deputy's own tasks in this process (a shell task from the side panel). */
  openInternal(client: McpClientInfo, mode: 'ask' | 'act'): BridgeSession {
    return this.openSession(client, 'task', mode, undefined);
  }

  /** The panel's Stop: the agent is told, its connection closed, what it started ended. */
  stop(sessionId: string): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    session.peer?.notify('bridge.stopped', { reason: 'The user stopped this agent in Deputy\'s side panel. Its access ends here; restart the MCP server to ask again.' });
    setTimeout(() => session.peer?.close(), 100);
    void this.close(session, 'Stopped by the user.');
    return true;
  }

  /** Everything ends when the host stops. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => this.close(session, 'The Deputy host is stopping.')));
    await this.deps.servers?.close();
  }

  handlers(): Pick<Handlers<HostMethods>, McpHandlerNames> {
    const servers = (): McpServerPool => {
      if (!this.deps.servers) throw new AppError('unavailable', 'MCP servers are not part of this host build.');
      return this.deps.servers;
    };
    return {
      'mcp.stop': (params) => ({ stopped: this.stop(params.sessionId) }),
      'mcp.servers.tools': () => servers().list(),
      'mcp.servers.call': (params) => servers().call(params.server, params.tool, params.arguments),
    };
  }

  private openSession(client: McpClientInfo, kind: 'mcp' | 'task', mode: 'ask' | 'act' | undefined, peer: BridgePeer | undefined): BridgeSession {
    const ref: McpSessionRef = { id: `mcp-${randomUUID().slice(0, 8)}`, client, kind };
    const session: Session = { ref, peer, mode, shell: undefined, desktop: undefined, closed: false };
    this.sessions.set(ref.id, session);
    this.deps.link.emit('mcp.session', { session: ref, state: 'connected' });
    return {
      id: ref.id,
      tools: async () => {
        const status = await this.status(session);
        return { tools: mcpToolList(status && { shell: status.shell && this.deps.shell !== undefined, desktop: status.desktop && this.deps.desktop !== undefined }), status };
      },
      call: (params, signal) => this.call(session, params, signal),
      closed: (reason) => void this.close(session, reason),
    };
  }

  private async status(session: Session): Promise<McpStatus | null> {
    if (session.ref.kind === 'task') return { enabled: true, mode: session.mode ?? 'ask', shell: false, desktop: false };
    return this.deps.link.call('mcp.status', {}, { timeoutMs: 10_000 }).catch(() => null);
  }

  private async call(session: Session, params: ParamsOf<BridgeMethods, 'bridge.call'>, signal: AbortSignal): Promise<McpCallResult> {
    if (session.closed) throw new AppError('forbidden', 'This agent was stopped in Deputy\'s side panel.');
    const { name, callId } = params;
    if (name.startsWith(BROWSER_PREFIX)) return this.page(session, params, signal);
    if (ROUTINE_TOOL_NAMES.has(name)) return this.routine(session, params, signal);
    const status = await this.status(session);
    if (!status) return text('Deputy\'s browser extension did not answer, so nothing was done: check that the browser is open and the side panel says "host: connected".');
    if (!status.enabled) return text(MCP_DISABLED_MESSAGE);
    const activity = (change: ActivityChange): void =>
      this.deps.link.emit('mcp.activity', { session: session.ref, ...change, at: this.deps.now() });
    const approve = panelApprover(this.deps.link, session.ref, activity);
    const tool = name.startsWith(SHELL_PREFIX) ? name.slice(SHELL_PREFIX.length) : name.slice(DESKTOP_PREFIX.length);
    try {
      activity({ callId, tool: name, text: name, state: 'running' });
      if (name.startsWith(SHELL_PREFIX)) {
        if (!status.shell || !this.deps.shell) return text('Shell commands are off for connected agents. The user can allow them in Deputy\'s side panel: Settings, "Connected agents (MCP)", "Allow shell commands".');
        session.shell ??= this.deps.shell(session.ref, approve);
        return await this.settle(session, name, await session.shell.call(tool, params.arguments, callId, signal), activity);
      }
      if (name.startsWith(DESKTOP_PREFIX)) {
        if (!status.desktop || !this.deps.desktop) return text('Desktop control is off for connected agents. The user can allow it in Deputy\'s side panel: Settings, "Connected agents (MCP)", "Allow desktop control".');
        const found = session.desktop ?? (await this.deps.desktop());
        if ('unavailable' in found) return text(`Desktop control is not available here: ${found.unavailable}`);
        const desktop = (session.desktop = found);
        if (tool === 'screenshot') {
          const shot = await desktop.screenshot();
          activity({ callId, tool: name, text: 'Took a desktop screenshot', state: 'done' });
          return shot;
        } else {
          const reveal = revealer(this.deps.link, session.ref, activity);
          return await this.settle(session, name, await desktop.call(tool, params.arguments, callId, { mode: status.mode, approve, reveal, clientName: session.ref.client.name, signal }), activity);
        }
      }
      throw new AppError('not_found', `Unknown tool ${name}.`);
    } catch (error) {
      const shape = toErrorShape(error);
      if (shape.code === 'not_found' && shape.message.startsWith('Unknown tool')) throw error;
      // An error can quote what the step read (a command's output): it is redacted like any result.
      const failed = await redactForAgent(this.deps.link, session.ref, text(shape.code === 'cancelled' ? `Cancelled: ${shape.message}` : `The call failed: ${shape.message}`));
      activity({ callId, tool: name, text: name, state: shape.code === 'cancelled' ? 'cancelled' : 'failed', summary: firstLine(failed.result) });
      return failed.result;
    }
  }

  /**
   * A host-side step's result as the agent and the panel's log get it: redacted by the extension with the user's
   * personal data (withheld when that cannot be done), its state in the log.
   */
  private async settle(session: Session, name: string, call: CallRecord, activity: (change: ActivityChange) => void): Promise<McpCallResult> {
    const raw = fromCall(call);
    const { result, extra } = await redactForAgent(this.deps.link, session.ref, raw, [callLogText(call)]);
    activity({ callId: call.id, tool: name, text: extra[0] ?? name, state: call.status === 'denied' ? 'denied' : raw.isError || result.isError ? 'failed' : 'done', summary: firstLine(result) });
    return result;
  }

  private async page(session: Session, params: ParamsOf<BridgeMethods, 'bridge.call'>, signal: AbortSignal): Promise<McpCallResult> {
    const onAbort = (): void =>
      void this.deps.link.call('mcp.cancel', { sessionId: session.ref.id, callId: params.callId, reason: 'The agent cancelled the call.' }).catch(() => undefined);
    // An upload names files by path: the host finds them here; the page and the extension see them by name.
    const upload = params.name === `${BROWSER_PREFIX}upload` ? await uploadRequest(params.arguments) : undefined;
    if (upload && 'error' in upload) return text(upload.error);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.deps.link.call(
        'mcp.page',
        {
          session: session.ref,
          callId: params.callId,
          tool: params.name,
          arguments: upload ? upload.arguments : params.arguments,
          ...(upload ? { files: upload.files } : {}),
          ...(session.ref.kind === 'task' && session.mode ? { mode: session.mode } : {}),
        },
        { timeoutMs: PAGE_CALL_TIMEOUT_MS },
      );
    } catch (error) {
      const shape = toErrorShape(error);
      if (shape.code === 'unavailable' || shape.code === 'disconnected') return text(`Deputy's browser extension cannot be reached (${shape.message}). Check that the browser is open; nothing was done.`);
      return text(`The call failed: ${shape.message}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** list_routines and run_routine: the extension holds the routines and runs a replay as a task, through its gate. */
  private async routine(session: Session, params: ParamsOf<BridgeMethods, 'bridge.call'>, signal: AbortSignal): Promise<McpCallResult> {
    const onAbort = (): void =>
      void this.deps.link.call('mcp.cancel', { sessionId: session.ref.id, callId: params.callId, reason: 'The agent cancelled the call.' }).catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const tool = params.name === 'run_routine' ? 'run_routine' : 'list_routines';
      return await this.deps.link.call('mcp.routine', { session: session.ref, callId: params.callId, tool, arguments: params.arguments }, { timeoutMs: PAGE_CALL_TIMEOUT_MS });
    } catch (error) {
      const shape = toErrorShape(error);
      if (shape.code === 'unavailable' || shape.code === 'disconnected') return text(`Deputy's browser extension cannot be reached (${shape.message}). Check that the browser is open; nothing was done.`);
      return text(`The call failed: ${shape.message}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async close(session: Session, reason: string): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    this.sessions.delete(session.ref.id);
    this.deps.link.emit('mcp.session', { session: session.ref, state: 'disconnected', reason });
    void this.deps.link.call('mcp.cancel', { sessionId: session.ref.id, reason }).catch(() => undefined);
    await session.shell?.close().catch((error: unknown) => this.deps.log.warn('agent shell did not close cleanly', { error: String(error) }));
  }
}

function firstLine(result: McpCallResult): string {
  const first = result.content.find((part) => part.type === 'text');
  return first?.type === 'text' ? (first.text.split('\n')[0] ?? '').slice(0, 300) : '';
}

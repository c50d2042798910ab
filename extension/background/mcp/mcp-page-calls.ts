import type { StepRecord } from '../../../shared/agent/agent-state';
import { createRedactor, type Redactor } from '../../../shared/agent/redactor';
import { createSecretVault, type SecretVault } from '../../../shared/agent/secret-vault';
import { callLogText, callResultText, runSingleCall } from '../../../shared/agent/single-call';
import { hostOf, matchesAny } from '../../../shared/agent/site-list';
import { observationRecord } from '../../../shared/agent/step-record';
import { wrapUntrusted } from '../../../shared/agent/untrusted';
import { webTools } from '../../../shared/agent/web-tools';
import { AppError, toErrorShape } from '../../../shared/errors';
import { MCP_DISABLED_MESSAGE, type McpActivity, type McpCallResult, type McpSessionRef, type ParamsOf, type ResultOf, type HostRequestMethods, type Settings, type TaskFile } from '../../../shared/protocol';
import type { Screenshot } from '../../../shared/agent/environment';
import type { McpActivityLog } from './mcp-activity-log';
import { hostApprovalRequest, type McpApprovalQueue } from './mcp-approval-queue';
import type { TabEnvironment } from '../page/tab-environment';

/** Who a tab environment acts for: the owner of its debugger attachment and egress guard, and the files it may upload. */
export interface AgentOwner {
  id: string;
  files: TaskFile[];
}

export interface McpPageDeps {
  settings: { get(): Promise<Settings> };
  /**
   * The agent's tab environment, as a task's: its owner holds the debugger attachment that carries trusted input and
   * answers dialogs and file pickers, and the egress guard that keeps the agent's tabs to the origins approved for it.
   */
  environment: (tabId: number, owner: AgentOwner) => TabEnvironment;
  /** Lets go of what an agent held once it is gone: its debugger attachments and its egress guard. */
  release: (owner: string) => Promise<void>;
  /** Opens a tab of its own for an agent, in front so the user sees what it does. */
  openTab: () => Promise<number>;
  tabExists: (tabId: number) => Promise<boolean>;
  /** The tab brought to the front and captured. */
  screenshot: (tabId: number) => Promise<Screenshot | undefined>;
  log: McpActivityLog;
  approvals: McpApprovalQueue;
  now: () => number;
}

interface AgentSession {
  ref: McpSessionRef;
  /** The debugger and egress-guard owner (`mcp:<session>`); `owner.files` are the files the running upload names. */
  owner: AgentOwner;
  /** Origins the user approved this agent to reach during its calls (its egress guard lets them through). */
  origins: { sites: string[]; reach: string[] };
  /** The egress scope last set, to set it again only when it changes. */
  scopeKey: string | undefined;
  tabId: number | undefined;
  environment: TabEnvironment | undefined;
  /** The tab was closed by someone else: the agent is told so rather than given a new tab behind its back. */
  tabLost: number | undefined;
  vault: SecretVault;
  redactor: Redactor;
  /** The page as last read, for the policy gate (the element behind a number) and the step text. */
  page: StepRecord['observation'] | undefined;
  /** Sites the user approved for this agent ("Approve for <site>"): only for this connection. */
  sites: Set<string>;
  calls: Map<string, AbortController>;
}

/** Stands for "no site approved yet", so that every site needs the user's approval first; .invalid never resolves. */
const NO_SITE_YET = 'https://no-site-approved-yet.invalid/';
const NO_SITE_HOST = /no-site-approved-yet\.invalid/g;
/** In the egress scope, so that an agent with no site approved yet has a guard that lets nothing through. */
const NO_SITE_ORIGIN = 'https://no-site-approved-yet.invalid';

const text = (message: string, isError = true): McpCallResult => ({ content: [{ type: 'text', text: message }], isError });

class TabClosed extends AppError {
  constructor(tabId: number, tool: string) {
    super('not_found', `The tab this agent worked in (tab ${tabId}) was closed while ${tool} ran; nothing more was done there. Open a page with browser_navigate (it opens a new tab) or pick one with browser_tabs.`);
  }
}

/**
 * Page tools for connected agents (and Deputy's own shell tasks), run by the background on the agent's tab through the
 * same code path as the agent's own calls: the same tool declarations, argument validation, policy gate (with the user's
 * allowed and denied sites), approvals in the side panel, redaction, and verified actions. Each agent gets a tab of its
 * own on its first call.
 */
export class McpPageCalls {
  private readonly sessions = new Map<string, AgentSession>();

  constructor(private readonly deps: McpPageDeps) {}

  async status(): Promise<Settings['mcp']> {
    return (await this.deps.settings.get()).mcp;
  }

  /** Called when a tab closes: calls running there end at once with a clear message. */
  tabRemoved(tabId: number): void {
    for (const session of this.sessions.values()) {
      if (session.tabId !== tabId) continue;
      session.tabLost = tabId;
      session.tabId = undefined;
      session.environment = undefined;
      session.page = undefined;
      for (const controller of session.calls.values()) controller.abort(new TabClosed(tabId, 'the call'));
    }
  }

  /** The agent went away or cancelled: its running calls stop and its cards are refused. */
  cancel(sessionId: string, callId: string | undefined, reason: string): void {
    this.deps.approvals.cancel(sessionId, callId, reason);
    const session = this.sessions.get(sessionId);
    if (!session) return;
    for (const [id, controller] of session.calls) if (callId === undefined || id === callId) controller.abort(new AppError('cancelled', reason));
    if (callId !== undefined) return;
    this.sessions.delete(sessionId);
    void this.deps.release(session.owner.id).catch(() => undefined);
  }

  /**
   * Host-side text for an agent (its shell output, a desktop step's result), redacted with the user's personal data
   * by the session's own redactor: a value its pages showed as {{redacted_card_1}} reads the same in its shell.
   */
  async redact(params: ParamsOf<HostRequestMethods, 'mcp.redact'>): Promise<ResultOf<HostRequestMethods, 'mcp.redact'>> {
    const session = this.session(params.session, await this.deps.settings.get());
    return { texts: params.texts.map((part) => session.redactor.redact(part)) };
  }

  /**
   * The values behind an agent's placeholders, for typing on the desktop: only names this session knows, only after
   * the user approved the card that names them and the window they go to, and never while MCP is off.
   */
  async reveal(params: ParamsOf<HostRequestMethods, 'mcp.reveal'>): Promise<ResultOf<HostRequestMethods, 'mcp.reveal'>> {
    const settings = await this.deps.settings.get();
    if (params.session.kind === 'mcp' && !settings.mcp.enabled) return { approved: false, note: MCP_DISABLED_MESSAGE, values: {} };
    const session = this.session(params.session, settings);
    const known = new Set(session.vault.names());
    const unknown = params.names.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      const names = session.vault.names().map((name) => `{{${name}}}`).join(', ') || 'none';
      return { approved: false, note: `Deputy holds no personal data named ${unknown.map((name) => `{{${name}}}`).join(', ')}, so nothing was typed. The placeholders this agent may use: ${names}.`, values: {} };
    }
    const answer = await this.deps.approvals.ask(session.ref, hostApprovalRequest(params));
    if (!answer.approved) return { approved: false, ...(answer.note ? { note: answer.note } : {}), values: {} };
    return { approved: true, ...(answer.note ? { note: answer.note } : {}), values: Object.fromEntries(params.names.map((name) => [name, session.vault.resolve(`{{${name}}}`)])) };
  }

  async call(params: ParamsOf<HostRequestMethods, 'mcp.page'>): Promise<McpCallResult> {
    const settings = await this.deps.settings.get();
    if (params.session.kind === 'mcp' && !settings.mcp.enabled) return text(MCP_DISABLED_MESSAGE);
    const session = this.session(params.session, settings);
    const tool = params.tool.replace(/^browser_/, '');
    const controller = new AbortController();
    session.calls.set(params.callId, controller);
    const record = (change: Omit<McpActivity, 'session' | 'callId' | 'tool' | 'at'>): void =>
      void this.deps.log.record({ session: session.ref, callId: params.callId, tool: params.tool, at: this.deps.now(), ...change });
    record({ text: params.tool, state: 'running', ...(session.tabId === undefined ? {} : { tabId: session.tabId }) });
    const stopped = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }));
    try {
      const outcome = await Promise.race([this.run(session, tool, params, settings, controller.signal, record), stopped]);
      record({ text: outcome.stepText, state: outcome.state, summary: summaryOf(outcome.result), ...(session.tabId === undefined ? {} : { tabId: session.tabId }) });
      return outcome.result;
    } catch (error) {
      const shape = toErrorShape(error instanceof TabClosed ? new TabClosed(session.tabLost ?? -1, params.tool) : error);
      record({ text: params.tool, state: shape.code === 'cancelled' ? 'cancelled' : 'failed', summary: shape.message });
      return text(shape.message);
    } finally {
      session.calls.delete(params.callId);
    }
  }

  private session(ref: McpSessionRef, settings: Settings): AgentSession {
    let session = this.sessions.get(ref.id);
    if (!session) {
      const vault = createSecretVault({ entries: settings.personalData });
      session = { ref, owner: { id: `mcp:${ref.id}`, files: [] }, origins: { sites: [], reach: [] }, scopeKey: undefined, tabId: undefined, environment: undefined, tabLost: undefined, vault, redactor: createRedactor(vault, { emails: settings.redactEmails, phones: settings.redactPhones }), page: undefined, sites: new Set(), calls: new Map() };
      this.sessions.set(ref.id, session);
    }
    return session;
  }

  /** The agent's tab; a new one when it has none yet (or asked to open a page after its tab was closed). */
  private async tab(session: AgentSession, tool: string, args: Record<string, unknown>): Promise<TabEnvironment> {
    if (session.tabId !== undefined && session.environment && (await this.deps.tabExists(session.tabId))) return session.environment;
    const opensPage = tool === 'navigate' || (tool === 'tabs' && args.action !== 'close');
    if (session.tabLost !== undefined && !opensPage) throw new TabClosed(session.tabLost, `browser_${tool}`);
    const tabId = await this.deps.openTab();
    session.tabId = tabId;
    session.tabLost = undefined;
    session.environment = this.deps.environment(tabId, session.owner);
    session.page = undefined;
    void this.deps.log.tab(session.ref, tabId);
    return session.environment;
  }

  /**
   * Keeps the agent's tabs to the origins approved for it, enforced by the browser as for a task: what a page's own
   * script sends elsewhere (a form post, a redirect with data in the address) is held and becomes an approval.
   */
  private async guard(session: AgentSession, environment: TabEnvironment, settings: Settings): Promise<void> {
    const origins = [...new Set([NO_SITE_ORIGIN, ...session.sites, ...session.origins.sites, ...session.origins.reach])];
    const scope = { origins, patterns: [...settings.allowedSites] };
    const key = JSON.stringify([environment.currentTabId(), scope]);
    if (key === session.scopeKey) return;
    await environment.setEgressScope?.(scope);
    session.scopeKey = key;
  }

  private async read(session: AgentSession, environment: TabEnvironment, settings: Settings): Promise<StepRecord['observation']> {
    const observation = await environment.observe({ screenshot: false });
    if (matchesAny(observation.url, settings.deniedSites)) {
      throw new AppError('forbidden', `Deputy does not read or act on ${hostOf(observation.url) ?? observation.url} for other agents: the user listed it among the sites Deputy must not use.`);
    }
    session.page = observationRecord(observation, session.redactor);
    return session.page;
  }

  private async run(
    session: AgentSession,
    tool: string,
    params: ParamsOf<HostRequestMethods, 'mcp.page'>,
    settings: Settings,
    signal: AbortSignal,
    record: (change: Omit<McpActivity, 'session' | 'callId' | 'tool' | 'at'>) => void,
  ): Promise<{ result: McpCallResult; stepText: string; state: 'done' | 'failed' | 'denied' }> {
    const environment = await this.tab(session, tool, params.arguments);
    const tabId = environment.currentTabId();
    await this.guard(session, environment, settings);
    // The files an upload names, checked by the host; no other call can put a file into a page.
    session.owner.files.splice(0, session.owner.files.length, ...(tool === 'upload' ? (params.files ?? []) : []));
    if (tool === 'snapshot') {
      const page = await this.read(session, environment, settings);
      return { result: text(`Tab ${tabId}\n${wrapUntrusted('untrusted_page', { url: page.url, title: page.title }, page.text ?? '')}`, false), stepText: `Read ${page.url}`, state: 'done' };
    }
    if (tool === 'screenshot') {
      const page = await this.read(session, environment, settings);
      const shot = await this.deps.screenshot(tabId);
      if (!shot) return { result: text('The screenshot could not be taken (the tab could not be brought to the front).'), stepText: 'Took a screenshot', state: 'failed' };
      return { result: { isError: false, content: [{ type: 'text', text: `Tab ${tabId}: ${page.url}` }, { type: 'image', data: shot.base64, mimeType: shot.mediaType }] }, stepText: `Took a screenshot of ${page.url}`, state: 'done' };
    }
    const declared = webTools.find((candidate) => candidate.name === tool);
    // The gate judges an element by what the page showed under its number: read the page when that is not known.
    const ref = typeof params.arguments.ref === 'number' ? params.arguments.ref : undefined;
    const page = session.page && (ref === undefined || session.page.elements.some((e) => e.ref === ref)) ? session.page : declared ? await this.read(session, environment, settings) : undefined;
    const allowed = [...settings.allowedSites, ...session.sites];
    // An agent picks the files it uploads itself (the user attached none): each upload is the user's to approve.
    const mode = tool === 'upload' && session.ref.kind === 'mcp' ? 'ask' : (params.mode ?? settings.mcp.mode);
    const call = await runSingleCall({
      taskId: session.ref.id,
      task: `Requests from ${session.ref.client.name}`,
      startUrl: NO_SITE_YET,
      observation: page ?? observationRecord({ url: '', title: '', text: '' }, session.redactor),
      call: { id: params.callId, name: tool, arguments: params.arguments },
      tools: webTools,
      environment,
      gateFacts: (call) => environment.gateFacts?.(call, { signal }) ?? Promise.resolve({}),
      origins: { approved: session.origins, changed: () => this.guard(session, environment, settings) },
      // A connected agent has no plan to approve: in ask mode each of its calls asks.
      policy: { mode, approveEachStep: true, allowedSites: allowed, deniedSites: settings.deniedSites, allowedFacts: {} },
      vault: session.vault,
      redactor: session.redactor,
      approve: async (request, abort) => {
        record({ text: request.intent, state: 'awaiting_approval', tabId });
        const destination = typeof params.arguments.url === 'string' ? params.arguments.url : request.url;
        // Sites are approved by origin (scheme, host and port), offered only where the gate offers it (a low-risk
        // step); the button names the host.
        const origin = request.siteApproval ?? null;
        const site = origin === null ? null : hostOf(origin);
        const answer = await this.deps.approvals.ask(
          session.ref,
          { callId: request.callId, tool: `browser_${request.tool}`, intent: request.intent, reason: `${request.reason.replace(NO_SITE_HOST, 'none yet for this agent')}${uploadNote(session.owner.files)}`, classes: request.classes, url: destination, ...(site ? { standing: { kind: 'site', site } } : {}) },
          abort,
        );
        if (answer.site && origin !== null) session.sites.add(origin);
        return answer;
      },
      signal,
      now: this.deps.now,
    });
    if (session.environment) session.tabId = session.environment.currentTabId();
    if (session.tabId !== undefined && session.tabId !== tabId) void this.deps.log.tab(session.ref, session.tabId);
    // The page may be another now: the next step that names an element reads it again.
    if (declared && call.status === 'finished' && (typeof declared.changesPage === 'function' ? declared.changesPage(params.arguments) : declared.changesPage)) session.page = undefined;
    const result = callResultText(call);
    const hint = call.status === 'finished' && call.result?.changed ? '\nCall browser_snapshot to see the page as it is now.' : '';
    return { result: text(`${result.text}${hint}`, result.isError), stepText: callLogText(call), state: call.status === 'denied' ? 'denied' : result.isError ? 'failed' : 'done' };
  }
}

/** For an upload's approval: where on this computer the files the agent chose are. */
function uploadNote(files: readonly TaskFile[]): string {
  const paths = files.flatMap((file) => (file.path ? [file.path] : []));
  return paths.length === 0 ? '' : ` The agent chose ${paths.length === 1 ? 'this file' : 'these files'} on this computer: ${paths.join(', ')}.`;
}

function summaryOf(result: McpCallResult): string {
  const first = result.content.find((part) => part.type === 'text');
  return first?.type === 'text' ? (first.text.split('\n')[0] ?? '').slice(0, 300) : '';
}

import { UNREADABLE } from '../../../shared/agent/egress';
import { INSPECT_LIMIT, type NamedSecret, secretsIn } from '../../../shared/agent/secret-match';
import type { Logger } from '../../../shared/logger';
import type { HeldRequest } from './egress-guard';
import type { DebuggerEventListener, InputPath } from '../input/debugger-session';
import { destinationOrigin, secretMayGo } from './secret-destinations';
import { type Sealed, WEBRTC_OFF } from './sealed-channels';

/** What the secret egress watch needs of the debugger, the tabs and the browser's rules; tests pass fakes. */
export interface SecretEgressPorts {
  acquire(owner: string, tabId: number): Promise<InputPath>;
  send(tabId: number, method: string, params?: Record<string, unknown>, sessionId?: string): Promise<unknown>;
  on(method: string, listener: DebuggerEventListener): () => void;
  /**
   * Closes the task's tabs to every origin but `sealed.origins` for channels whose content cannot be read (sockets,
   * WebTransport), or for everything when `sealed.everything` (a tab the debugger cannot watch); null opens them.
   */
  seal(taskId: string, sealed: Sealed | null): Promise<void>;
  now(): number;
  log: Pick<Logger, 'info' | 'warn'>;
}

interface Secret extends NamedSecret {
  allowed: Set<string>;
}

/** A request paused by the browser because it would carry a secret elsewhere, until the user decides. */
interface Paused extends HeldRequest {
  requestId: string;
  sessionId: string | undefined;
  asked: boolean;
}

interface TaskSecrets {
  taskId: string;
  secrets: Map<string, Secret>;
  tabs: Set<number>;
  /** Tabs and child targets (tab:session) that intercept requests now. */
  armed: Set<string>;
  /** Whether some tab of the task could not be watched (the debugger not attached): then everything is sealed. */
  blind: boolean;
  paused: Paused[];
  /** Destinations the user refused: their requests are failed at once, without asking again. */
  refused: Set<string>;
  /** The task ended: requests still coming in until its attachment goes are judged, and refused without asking. */
  ended?: boolean;
  /** Refusing what was held at the end: whoever lets go of the attachment waits for it (the browser sends what is still paused then). */
  ending?: Promise<void>;
}

/** Every request of every resource type, paused before it is sent. */
const FETCH_ENABLE = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };
/** Frames in other processes, dedicated and shared workers and service workers, each paused until it is armed too. */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };
const CHILD_TYPES = new Set(['iframe', 'worker', 'shared_worker', 'service_worker', 'page', 'other']);

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function headerText(headers: unknown): string {
  if (!headers || typeof headers !== 'object') return '';
  return Object.entries(headers as Record<string, unknown>)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');
}

/** A paused request's body as text, or null when it has one that cannot be read (a file, a stream, too long). */
function bodyOf(request: Record<string, unknown>): string | null {
  if (typeof request.postData === 'string') return request.postData.length > INSPECT_LIMIT ? null : request.postData;
  if (!request.hasPostData) return '';
  const entries = Array.isArray(request.postDataEntries) ? (request.postDataEntries as { bytes?: string }[]) : [];
  if (entries.length === 0 || entries.some((e) => typeof e.bytes !== 'string')) return null;
  const bytes = entries.flatMap((e) => Array.from(atob(e.bytes ?? ''), (c) => c.charCodeAt(0)));
  if (bytes.length > INSPECT_LIMIT) return null;
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/**
 * Data typed into a page leaves only to where it was approved. Once a task put a secret into one of its tabs, every
 * request of those tabs (their frames in any process, their workers and service workers, attached through the
 * debugger the task already holds) is paused before it is sent and matched against the task's secrets in every
 * common encoding (see secret-match.ts); one that carries a secret to an origin not approved for it stays paused and
 * becomes an approval naming the destination and the placeholder. Channels whose content cannot be read are closed
 * to unapproved origins by the browser's rules meanwhile, and WebRTC is taken away from the task's pages.
 */
export class SecretEgress {
  private readonly tasks = new Map<string, TaskSecrets>();

  constructor(private readonly ports: SecretEgressPorts) {
    ports.on('Fetch.requestPaused', (tabId, params, sessionId) => void this.paused(tabId, params, sessionId));
    ports.on('Target.attachedToTarget', (tabId, params, sessionId) => void this.childAttached(tabId, params, sessionId));
    ports.on('detached', (tabId) => {
      for (const task of this.tasks.values()) for (const key of [...task.armed]) if (key.startsWith(`${tabId}:`)) task.armed.delete(key);
    });
  }

  /** Whether the task has put any secret into a page. */
  holdsSecrets(taskId: string): boolean {
    return (this.tasks.get(taskId)?.secrets.size ?? 0) > 0;
  }

  /** The task put `values` into its page at `origins`: arm every tab of the task before the values are typed. */
  async place(taskId: string, tabs: readonly number[], values: readonly NamedSecret[], origins: readonly string[]): Promise<void> {
    const task: TaskSecrets = this.tasks.get(taskId) ?? { taskId, secrets: new Map<string, Secret>(), tabs: new Set<number>(), armed: new Set<string>(), blind: false, paused: [], refused: new Set<string>() };
    this.tasks.set(taskId, task);
    for (const { name, value } of values) {
      const secret = task.secrets.get(name) ?? { name, value, allowed: new Set<string>() };
      for (const origin of origins) secret.allowed.add(origin);
      task.secrets.set(name, secret);
    }
    for (const tabId of tabs) task.tabs.add(tabId);
    for (const tabId of task.tabs) await this.arm(task, tabId);
    await this.reseal(task);
  }

  /** A tab joined the task (the page opened it, the task switched there): watched from now on if secrets are out. */
  async tabAdded(taskId: string, tabId: number): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task || task.secrets.size === 0 || task.tabs.has(tabId)) return;
    task.tabs.add(tabId);
    await this.arm(task, tabId);
    await this.reseal(task);
  }

  /** The next held request the user has not been asked about yet. */
  takeHeld(taskId: string): HeldRequest | undefined {
    const next = this.tasks.get(taskId)?.paused.find((p) => !p.asked);
    if (!next) return undefined;
    next.asked = true;
    const { requestId: _r, sessionId: _s, asked: _a, ...held } = next;
    return held;
  }

  /** The user decided on a held request: approved, its secrets may go to its origin from now on and it is sent. */
  async decide(taskId: string, heldId: string, approved: boolean): Promise<boolean> {
    const task = this.tasks.get(taskId);
    const request = task?.paused.find((p) => p.id === heldId);
    if (!task || !request) return false;
    const names = (request.secrets ?? []).filter((n) => n !== UNREADABLE);
    if (approved) {
      for (const name of names.length > 0 ? names : [...task.secrets.keys()]) task.secrets.get(name)?.allowed.add(request.origin);
      await this.reseal(task);
    } else {
      task.refused.add(request.origin);
    }
    // Every request waiting for the same destination goes the same way.
    const settled = task.paused.filter((p) => p.origin === request.origin && (approved ? this.mayGo(task, p.url).length === 0 : true));
    task.paused = task.paused.filter((p) => !settled.includes(p));
    let sent = false;
    for (const p of settled) {
      const command = approved ? ['Fetch.continueRequest', { requestId: p.requestId }] : ['Fetch.failRequest', { requestId: p.requestId, errorReason: 'AccessDenied' }];
      const ok = await this.ports.send(p.tabId, command[0] as string, command[1] as Record<string, unknown>, p.sessionId).then(
        () => true,
        () => false,
      );
      if (p.id === heldId) sent = approved && ok;
    }
    return sent;
  }

  /**
   * The task ended: every request still held is refused. The task stays known until its debugger attachment goes
   * (the caller releases it next), so a request the page makes meanwhile is still judged, and refused without asking.
   */
  end(taskId: string): Promise<void> {
    const task = this.tasks.get(taskId);
    if (!task) return Promise.resolve();
    task.ended = true;
    task.ending ??= (async () => {
      // Refused all at once: each one left paused when the attachment goes would be sent by the browser.
      const refuse = (p: Paused): Promise<unknown> => this.ports.send(p.tabId, 'Fetch.failRequest', { requestId: p.requestId, errorReason: 'AccessDenied' }, p.sessionId).catch(() => undefined);
      while (task.paused.length > 0) await Promise.all(task.paused.splice(0).map(refuse));
      await this.ports.seal(taskId, null).catch(() => undefined);
    })();
    return task.ending;
  }

  /** Forgets an ended task once its attachments are gone. */
  forget(taskId: string): void {
    if (this.tasks.get(taskId)?.ended) this.tasks.delete(taskId);
  }

  private taskOfTab(tabId: number): TaskSecrets | undefined {
    return [...this.tasks.values()].find((task) => task.tabs.has(tabId) && task.secrets.size > 0);
  }

  /** The secrets that may not go to `url`. */
  private mayGo(task: TaskSecrets, url: string): Secret[] {
    return [...task.secrets.values()].filter((secret) => !secretMayGo(url, secret.allowed));
  }

  private async arm(task: TaskSecrets, tabId: number): Promise<void> {
    if (task.armed.has(`${tabId}:`)) return;
    const path = await this.ports.acquire(task.taskId, tabId);
    if (!path.trusted) {
      // Nothing can be read in this tab: it may reach only where the secrets may go, by any channel.
      task.blind = true;
      this.ports.log.warn('secret egress: tab cannot be watched, sealed instead', { tabId, reason: path.reason });
      return;
    }
    try {
      await this.armTarget(tabId, undefined);
      task.armed.add(`${tabId}:`);
    } catch (error) {
      task.blind = true;
      this.ports.log.warn('secret egress: arming failed, sealed instead', { tabId, error: String(error) });
    }
  }

  private async armTarget(tabId: number, sessionId: string | undefined, type = 'page'): Promise<void> {
    await this.ports.send(tabId, 'Fetch.enable', FETCH_ENABLE, sessionId);
    if (type === 'page' || type === 'iframe') {
      await this.ports.send(tabId, 'Page.addScriptToEvaluateOnNewDocument', { source: WEBRTC_OFF, runImmediately: true }, sessionId).catch(() => undefined);
    }
    if (type !== 'service_worker') await this.ports.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH, sessionId).catch(() => undefined);
  }

  private async childAttached(tabId: number, params: Record<string, unknown>, parent: string | undefined): Promise<void> {
    const sessionId = typeof params.sessionId === 'string' ? params.sessionId : undefined;
    if (sessionId === undefined) return;
    const type = text((params.targetInfo as { type?: unknown } | undefined)?.type, 'other');
    const task = this.taskOfTab(tabId);
    try {
      if (task && CHILD_TYPES.has(type)) {
        await this.armTarget(tabId, sessionId, type);
        task.armed.add(`${tabId}:${sessionId}`);
      }
    } catch (error) {
      this.ports.log.warn('secret egress: a frame or worker could not be armed', { tabId, type, parent: parent ?? null, error: String(error) });
    } finally {
      // It was paused at its start so that no request of it goes before it is armed.
      await this.ports.send(tabId, 'Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    }
  }

  private async paused(tabId: number, params: Record<string, unknown>, sessionId: string | undefined): Promise<void> {
    const requestId = text(params.requestId, '');
    const request = (params.request ?? {}) as Record<string, unknown>;
    const url = text(request.url, '');
    const method = text(request.method, 'GET').toUpperCase();
    const task = this.taskOfTab(tabId);
    const go = (): Promise<unknown> => this.ports.send(tabId, 'Fetch.continueRequest', { requestId }, sessionId).catch(() => undefined);
    if (!task) return void (await go());
    const barred = this.mayGo(task, url);
    if (barred.length === 0) return void (await go());
    const body = bodyOf(request);
    const found = secretsIn(`${url}\n${headerText(request.headers)}\n${body ?? ''}`, barred);
    const secrets = found.length > 0 ? found : body === null ? [UNREADABLE] : [];
    if (secrets.length === 0) return void (await go());
    const origin = destinationOrigin(url) ?? url;
    this.ports.log.info('secret egress: request held', { tabId, type: text(params.resourceType, ''), secrets: secrets.length });
    if (task.refused.has(origin) || task.ended) {
      await this.ports.send(tabId, 'Fetch.failRequest', { requestId, errorReason: 'AccessDenied' }, sessionId).catch(() => undefined);
      return;
    }
    const address = url.replace(/[?#].*$/, '');
    task.paused.push({
      id: `secret:${requestId}:${sessionId ?? ''}`,
      requestId,
      sessionId,
      asked: false,
      url,
      address,
      origin,
      withQuery: address !== url,
      method,
      type: 'request',
      fields: [],
      secrets,
      tabId,
      newTab: false,
      formData: null,
      rawBody: true,
      at: this.ports.now(),
      taskId: task.taskId,
    });
  }

  private async reseal(task: TaskSecrets): Promise<void> {
    // Uninspectable channels may reach only the places every secret may go (what all of them allow).
    const sets = [...task.secrets.values()].map((s) => [...s.allowed]);
    const common = sets.length === 0 ? [] : (sets[0] ?? []).filter((o) => sets.every((set) => set.includes(o)));
    await this.ports.seal(task.taskId, { origins: common, everything: task.blind }).catch((error: unknown) => this.ports.log.warn('secret egress: sealing failed', { error: String(error) }));
  }
}

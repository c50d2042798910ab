import type { ObservedDownload } from '../../../shared/agent/environment';
import type { TaskFile } from '../../../shared/protocol';
import type { RequestEvents } from '../../platform/request-events';
import type { DebuggerSessions, InputPath } from './debugger-session';
import type { DialogWatch } from './dialogs';
import type { InputRelay } from './input-relay';
import { TabWaiters } from './tab-waiters';

/** The downloads of tasks, as the page agent reports and answers them (see downloads.ts). */
export interface TaskDownloads {
  /** A position in the tab's downloads, taken before an action. */
  mark(tabId: number): number;
  /** Downloads the tab started after the mark. */
  since(tabId: number, mark: number): Promise<ObservedDownload[]>;
  /** Every download of the task so far. */
  list(owner: string): ObservedDownload[];
  keep(owner: string, id: string): Promise<ObservedDownload>;
  discard(owner: string, id: string): Promise<ObservedDownload>;
}

/** The bytes of a file the user chose in the side panel, base64, by its stored id. */
export type LoadFile = (stored: string) => Promise<string | undefined>;

export interface PageInputDeps {
  sessions: DebuggerSessions;
  relay: InputRelay;
  dialogs: DialogWatch;
  downloads?: TaskDownloads;
  loadFile?: LoadFile;
  /** The tabs' shared request listeners, kept while a task works in a tab (see request-events.ts). */
  requests?: Pick<RequestEvents, 'keep'>;
}

/** Page-world function that puts files given as base64 into a file field (`this`), as a drop would. */
const SET_FILES_IN_PAGE = `function (files) {
  const transfer = new DataTransfer();
  for (const file of files) {
    const binary = atob(file.base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    transfer.items.add(new File([bytes], file.name, { type: file.type }));
  }
  this.files = transfer.files;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
}`;

const FILE_NAMES_IN_PAGE = 'function () { return Array.from(this.files || [], (f) => f.name); }';

/**
 * What the page agent needs beyond content scripts and tabs for real input: the task's debugger attachment and its
 * input leases, the dialogs and file pickers it reports, downloads, and the files the user attached.
 */
export class PageInput {
  private readonly choosers = new TabWaiters<{ backendNodeId: number; mode: string }>();

  constructor(readonly deps: PageInputDeps) {
    deps.sessions.on('Page.fileChooserOpened', (tabId, params) => {
      const backendNodeId = typeof params.backendNodeId === 'number' ? params.backendNodeId : undefined;
      if (backendNodeId === undefined) return;
      this.choosers.settle(tabId, { backendNodeId, mode: params.mode === 'selectMultiple' ? 'selectMultiple' : 'selectSingle' });
    });
  }

  get sessions(): DebuggerSessions {
    return this.deps.sessions;
  }

  get dialogs(): DialogWatch {
    return this.deps.dialogs;
  }

  get downloads(): TaskDownloads | undefined {
    return this.deps.downloads;
  }

  /** Attaches the task's debugger to the tab (once), or says why its input will be synthetic. */
  attach(owner: string | undefined, tabId: number): Promise<InputPath> {
    if (owner === undefined) {
      return Promise.resolve(this.deps.sessions.isAttached(tabId) ? { trusted: true } : { trusted: false, reason: 'the action is not part of a task, which is what attaches the debugger' });
    }
    // The tab's request listeners stay while the task works in it: adding and removing them for each wait would clear
    // every tab's back/forward cache, and "back" would load the page again.
    this.deps.requests?.keep(owner, tabId);
    return this.deps.sessions.acquire(owner, tabId);
  }

  /** The act params' input: a lease for trusted input in that frame, or the reason there is none. */
  async begin(owner: string | undefined, tabId: number, frameId: number): Promise<{ lease?: string; reason?: string }> {
    const path = await this.attach(owner, tabId);
    if (!path.trusted) return { reason: path.reason };
    const lease = this.deps.relay.lease(tabId, frameId);
    return lease ? { lease } : { reason: 'the debugger was detached from the tab' };
  }

  /** Ends the action's lease; returns how its text was typed, if it typed any. */
  end(lease: string | undefined): { typing?: string } {
    return this.deps.relay.revoke(lease);
  }

  /** Settles with the next file picker the tab opens (which the debugger reports instead of showing it). */
  nextFileChooser(tabId: number): { opened: Promise<{ backendNodeId: number; mode: string }>; cancel(): void } {
    const { value, cancel } = this.choosers.next(tabId);
    return { opened: value, cancel };
  }

  /**
   * Puts the files into the field behind a file picker the page opened: by path for files given on the command line
   * (DOM.setFileInputFiles), by content for files chosen in the side panel. Returns the names the field holds after.
   */
  async setChooserFiles(tabId: number, backendNodeId: number, files: readonly TaskFile[]): Promise<string[]> {
    const send = (method: string, params: Record<string, unknown>): Promise<unknown> => this.deps.sessions.send(tabId, method, params);
    const paths = files.flatMap((file) => (file.path ? [file.path] : []));
    if (paths.length === files.length) {
      await send('DOM.setFileInputFiles', { files: paths, backendNodeId });
    } else if (paths.length === 0) {
      const contents = await Promise.all(files.map(async (file) => ({ name: file.name, type: file.type, base64: (await this.load(file)) ?? '' })));
      const { object } = (await send('DOM.resolveNode', { backendNodeId })) as { object: { objectId: string } };
      await send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: SET_FILES_IN_PAGE, arguments: [{ value: contents }] });
    } else {
      throw new Error('files from the command line and from the side panel cannot go into one field together: upload them one kind at a time');
    }
    const { object } = (await send('DOM.resolveNode', { backendNodeId })) as { object: { objectId: string } };
    const held = (await send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: FILE_NAMES_IN_PAGE, returnByValue: true })) as { result?: { value?: unknown } };
    return Array.isArray(held.result?.value) ? held.result.value.map(String) : [];
  }

  /** The bytes of a file chosen in the side panel, base64; undefined when it is gone. */
  async load(file: TaskFile): Promise<string | undefined> {
    if (!file.stored || !this.deps.loadFile) return undefined;
    return this.deps.loadFile(file.stored);
  }
}

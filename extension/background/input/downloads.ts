import { AppError } from '../../../shared/errors';
import type { ObservedDownload } from '../../../shared/agent/environment';
import type { Logger } from '../../../shared/logger';
import type { DownloadInfo, DownloadPorts } from '../../platform/downloads';
import type { DebuggerSessions } from './debugger-session';
import type { TaskDownloads } from './page-input';

export interface DownloadWatchDeps {
  ports: DownloadPorts;
  sessions: DebuggerSessions;
  /** Every change to a task's downloads, for its record (the side panel and `npm run task` report them). */
  onUpdate: (owner: string, downloads: ObservedDownload[]) => void;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  log: Logger;
}

/** Programs and scripts by file name: what runs when opened or installed. */
const EXECUTABLE_NAME =
  /\.(exe|msi|msix|msp|com|scr|bat|cmd|ps1|psm1|vbs|vbe|js|jse|wsf|wsh|hta|cpl|jar|app|dmg|pkg|mpkg|command|sh|bash|zsh|run|bin|appimage|deb|rpm|apk|xapk|ipa|reg|lnk|elf|out|py|pl|rb)$/i;
/** Programs and scripts by MIME type. */
const EXECUTABLE_MIME =
  /^application\/(x-msdownload|x-ms-dos-executable|x-msdos-program|vnd\.microsoft\.portable-executable|x-msi|x-ms-installer|x-executable|x-elf|x-sharedlib|x-mach-binary|x-apple-diskimage|x-newton-compatible-pkg|x-sh|x-shellscript|x-bat|java-archive|x-java-archive|vnd\.android\.package-archive|x-debian-package|x-rpm|x-redhat-package-manager)$/i;

/** Whether a file is a program or a script (by its name or type): keeping it waits for the user's approval. */
export function isExecutable(name: string, mime: string): boolean {
  return EXECUTABLE_NAME.test(name) || EXECUTABLE_MIME.test(mime);
}

/** A name safe to save under the task's folder: no folders, no characters file systems refuse. */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // Control characters are refused by every file system (checked by code point: a control character in a regular
  // expression reads as a mistake to the linter).
  const clean = [...base].map((c) => (c.charCodeAt(0) < 32 || '<>:"|?*'.includes(c) ? '_' : c)).join('').replace(/^\.+/, '').trim().slice(0, 150);
  return clean || 'download';
}

interface Tracked {
  owner: string;
  tabId: number;
  seq: number;
  info: ObservedDownload;
  /** The browser's id of the download now carrying it (a kept program gets a new one). */
  itemId: number | undefined;
}

interface Begun {
  tabId: number;
  url: string;
  name: string;
  at: number;
}

function nameFromUrl(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'download';
  } catch {
    return 'download';
  }
}

/**
 * The downloads of tasks: the debugger says which tab started one (Page.downloadWillBegin), chrome.downloads saves it
 * into the task's own folder under the downloads folder (Deputy/<date>-<task>/) and reports its path, size and type.
 * A program or a script is stopped before it is saved: it is kept only through the download tool, which the policy
 * gate lets through only with the user's approval. Downloads no task started are left to the browser as they are.
 */
export class DownloadWatch implements TaskDownloads {
  private readonly begun: Begun[] = [];
  private readonly tracked: Tracked[] = [];
  private readonly byItem = new Map<number, Tracked>();
  private readonly counters = new Map<string, number>();
  private seq = 0;

  constructor(private readonly deps: DownloadWatchDeps) {
    deps.sessions.on('Page.downloadWillBegin', (tabId, params) => {
      const url = typeof params.url === 'string' ? params.url : '';
      this.begun.push({ tabId, url, name: typeof params.suggestedFilename === 'string' ? params.suggestedFilename : nameFromUrl(url), at: deps.now() });
      if (this.begun.length > 50) this.begun.shift();
    });
    deps.ports.onDeterminingFilename((item, suggest) => void this.determine(item, suggest));
    deps.ports.onChanged((id) => void this.refresh(id));
  }

  /** Which task's tab started the download: the debugger's report of it, matched by address, waited for briefly. */
  private async startedBy(item: DownloadInfo): Promise<Begun | undefined> {
    for (let waited = 0; waited <= 500; waited += 50) {
      const index = this.begun.findIndex((b) => b.url === item.url || b.url === item.finalUrl);
      if (index >= 0) return this.begun.splice(index, 1)[0];
      await this.deps.sleep(50);
    }
    return undefined;
  }

  private async determine(item: DownloadInfo, suggest: (filename?: string) => void): Promise<void> {
    const kept = this.byItem.get(item.id);
    if (kept) {
      suggest(this.target(kept.owner, kept.info.name));
      return;
    }
    if (item.byExtensionId === this.deps.ports.ownId() || (!this.deps.sessions.holding() && this.begun.length === 0)) {
      suggest();
      return;
    }
    const begun = await this.startedBy(item);
    const owner = begun ? this.deps.sessions.ownerOf(begun.tabId) : undefined;
    if (!begun || !owner) {
      suggest();
      return;
    }
    const name = safeFileName(item.filename.split(/[/\\]/).pop() || begun.name);
    const count = (this.counters.get(owner) ?? 0) + 1;
    this.counters.set(owner, count);
    const entry: Tracked = {
      owner,
      tabId: begun.tabId,
      seq: (this.seq += 1),
      itemId: item.id,
      info: { id: `d${count}`, name, mime: item.mime, state: 'in_progress', executable: isExecutable(name, item.mime), url: item.finalUrl || item.url },
    };
    this.tracked.push(entry);
    this.byItem.set(item.id, entry);
    if (entry.info.executable) {
      // Stopped before anything is written under its name: a program lands on disk only with the user's approval.
      entry.itemId = undefined;
      entry.info = { ...entry.info, state: 'held', note: 'it is a program or a script, so Deputy stopped it before it was saved; keeping it needs the user\'s approval (download tool, keep)' };
      await this.deps.ports.cancel(item.id).catch(() => undefined);
      suggest();
      this.deps.log.info('download held', { owner, id: entry.info.id });
    } else {
      suggest(this.target(owner, name));
    }
    this.emit(owner);
  }

  /** The task's folder under the downloads folder: Deputy/<date>-<task>/<name>. */
  private target(owner: string, name: string): string {
    const day = new Date(this.deps.now()).toISOString().slice(0, 10);
    return `Deputy/${day}-${owner.slice(0, 8)}/${name}`;
  }

  private async refresh(itemId: number): Promise<void> {
    const entry = this.byItem.get(itemId);
    if (!entry || entry.itemId !== itemId) return;
    const item = await this.deps.ports.get(itemId);
    if (!item || entry.itemId !== itemId) return;
    const state = item.state === 'complete' ? 'complete' : item.state === 'interrupted' ? 'interrupted' : 'in_progress';
    const danger = item.danger !== 'safe' && item.danger !== 'accepted' ? `the browser marks it as dangerous (${item.danger}) and holds it until you keep it in its downloads list` : undefined;
    const note = item.error ? `the browser stopped it (${item.error})` : danger;
    entry.info = {
      ...entry.info,
      state: entry.info.state === 'discarded' ? 'discarded' : state,
      ...(item.filename ? { path: item.filename } : {}),
      ...(item.fileSize > 0 ? { size: item.fileSize } : {}),
      ...(item.mime ? { mime: item.mime } : {}),
      ...(note ? { note } : {}),
    };
    this.emit(entry.owner);
  }

  private emit(owner: string): void {
    this.deps.onUpdate(owner, this.list(owner));
  }

  mark(tabId: number): number {
    void tabId;
    return this.seq;
  }

  /** The downloads the tab started after the mark, each given a moment to finish (most are small). */
  async since(tabId: number, mark: number): Promise<ObservedDownload[]> {
    const pending = (): boolean => this.begun.some((b) => b.tabId === tabId);
    for (let waited = 0; pending() && waited < 1000; waited += 50) await this.deps.sleep(50);
    const mine = (): Tracked[] => this.tracked.filter((t) => t.tabId === tabId && t.seq > mark);
    for (let waited = 0; mine().some((t) => t.info.state === 'in_progress') && waited < 2000; waited += 100) await this.deps.sleep(100);
    return mine().map((t) => t.info);
  }

  list(owner: string): ObservedDownload[] {
    return this.tracked.filter((t) => t.owner === owner).map((t) => t.info);
  }

  private find(owner: string, id: string): Tracked {
    const entry = this.tracked.find((t) => t.owner === owner && t.info.id === id);
    if (!entry) throw new AppError('not_found', `There is no download ${id} in this task${this.list(owner).length > 0 ? `; its downloads are ${this.list(owner).map((d) => d.id).join(', ')}` : ''}`);
    return entry;
  }

  /** Keeps a held download: it is fetched again into the task's folder (the policy gate asked the user first). */
  async keep(owner: string, id: string): Promise<ObservedDownload> {
    const entry = this.find(owner, id);
    if (entry.info.state !== 'held') return entry.info;
    let itemId: number;
    try {
      itemId = await this.deps.ports.download(entry.info.url, this.target(owner, entry.info.name));
    } catch (error) {
      throw new AppError('unavailable', `${entry.info.name} could not be downloaded again (${String(error)}): the user can download it from the page themselves`);
    }
    entry.itemId = itemId;
    this.byItem.set(itemId, entry);
    entry.info = { ...entry.info, state: 'in_progress', note: 'kept with the user\'s approval' };
    for (let waited = 0; entry.info.state === 'in_progress' && waited < 5000; waited += 100) {
      await this.refresh(itemId);
      if (entry.info.state === 'in_progress') await this.deps.sleep(100);
    }
    this.emit(owner);
    return entry.info;
  }

  /** Discards a download: a held one is dropped, a saved file deleted, one under way cancelled. */
  async discard(owner: string, id: string): Promise<ObservedDownload> {
    const entry = this.find(owner, id);
    if (entry.itemId !== undefined) {
      if (entry.info.state === 'complete') await this.deps.ports.removeFile(entry.itemId).catch(() => undefined);
      else await this.deps.ports.cancel(entry.itemId).catch(() => undefined);
    }
    entry.info = { ...entry.info, state: 'discarded', note: entry.info.state === 'complete' ? 'the saved file was deleted' : 'it was not saved' };
    this.emit(owner);
    return entry.info;
  }
}

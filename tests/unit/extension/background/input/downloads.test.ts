import { describe, expect, it } from 'vitest';
import type { ObservedDownload } from '../../../../../shared/agent/environment';
import { DebuggerSessions } from '../../../../../extension/background/input/debugger-session';
import { DownloadWatch, isExecutable, safeFileName } from '../../../../../extension/background/input/downloads';
import type { DownloadInfo, DownloadPorts } from '../../../../../extension/platform/downloads';
import { fakeDebugger } from '../support/fake-debugger';
import { memoryStore } from '../support/memory-store';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** chrome.downloads stand-in: the test plays the browser's events; suggestions and calls are recorded. */
function fakeDownloads() {
  const items = new Map<number, DownloadInfo>();
  let determine: (item: DownloadInfo, suggest: (filename?: string) => void) => void = () => undefined;
  let changed: (id: number) => void = () => undefined;
  const suggested = new Map<number, string | undefined>();
  const cancelled: number[] = [];
  const removed: number[] = [];
  let next = 100;
  const ports: DownloadPorts = {
    onCreated: () => undefined,
    onChanged: (listener) => void (changed = listener),
    onDeterminingFilename: (listener) => void (determine = listener),
    get: (id) => Promise.resolve(items.get(id)),
    cancel: (id) => Promise.resolve(void cancelled.push(id)),
    removeFile: (id) => Promise.resolve(void removed.push(id)),
    download: (url, filename) => {
      next += 1;
      items.set(next, { id: next, url, finalUrl: url, filename: '', mime: '', fileSize: 0, state: 'in_progress', danger: 'safe', byExtensionId: 'deputy' });
      const item = items.get(next);
      if (item) setTimeout(() => determine(item, (name) => suggested.set(item.id, name ?? filename)), 0);
      return Promise.resolve(next);
    },
    ownId: () => 'deputy',
  };
  /** The browser starts a download: it asks for a file name, and Deputy answers (perhaps after a moment). */
  const start = (id: number, url: string, mime: string): Promise<string | undefined> => {
    const item: DownloadInfo = { id, url, finalUrl: url, filename: '', mime, fileSize: 0, state: 'in_progress', danger: 'safe' };
    items.set(id, item);
    return new Promise((resolve) => determine(item, (name) => (suggested.set(id, name), resolve(name))));
  };
  const finish = (id: number, filename: string, size: number): void => {
    const item = items.get(id);
    if (item) items.set(id, { ...item, filename, fileSize: size, state: 'complete' });
    changed(id);
  };
  return { ports, start, finish, suggested, cancelled, removed, items };
}

function setup() {
  const debug = fakeDebugger();
  const sessions = new DebuggerSessions({ ports: debug.ports, enabled: () => Promise.resolve(true), store: memoryStore(), log });
  const downloads = fakeDownloads();
  const updates: [string, ObservedDownload[]][] = [];
  const watch = new DownloadWatch({
    ports: downloads.ports,
    sessions,
    onUpdate: (owner, list) => updates.push([owner, list]),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    now: () => Date.UTC(2025, 2, 16),
    log,
  });
  return { debug, sessions, downloads, updates, watch };
}

describe('DownloadWatch', () => {
  it('saves a download a task\'s tab started into the task\'s folder and reports its name, path, size and type', async () => {
    const { debug, sessions, downloads, watch } = setup();
    await sessions.acquire('1234abcd-task', 9);
    const mark = watch.mark(9);
    debug.fire(9, 'Page.downloadWillBegin', { url: 'https://shop.example/report.pdf', suggestedFilename: 'report.pdf' });
    expect(await downloads.start(1, 'https://shop.example/report.pdf', 'application/pdf')).toBe('Deputy/2025-03-16-1234abcd/report.pdf');
    downloads.finish(1, '/home/u/Downloads/Deputy/2025-03-16-1234abcd/report.pdf', 2048);
    expect(await watch.since(9, mark)).toEqual([
      { id: 'd1', name: 'report.pdf', mime: 'application/pdf', state: 'complete', executable: false, url: 'https://shop.example/report.pdf', path: '/home/u/Downloads/Deputy/2025-03-16-1234abcd/report.pdf', size: 2048 },
    ]);
  });

  it('leaves downloads no task started to the browser, at once', async () => {
    const { downloads } = setup();
    expect(await downloads.start(2, 'https://elsewhere.example/a.zip', 'application/zip')).toBeUndefined();
  });

  it('stops a program before it is saved, fetches it again only when kept, and deletes a discarded file', async () => {
    const { debug, sessions, downloads, watch } = setup();
    await sessions.acquire('task-2', 4);
    debug.fire(4, 'Page.downloadWillBegin', { url: 'https://shop.example/setup.exe', suggestedFilename: 'setup.exe' });
    await downloads.start(3, 'https://shop.example/setup.exe', 'application/x-msdownload');
    expect(downloads.cancelled).toEqual([3]);
    expect(watch.list('task-2')[0]).toMatchObject({ id: 'd1', state: 'held', executable: true });
    const keeping = watch.keep('task-2', 'd1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(downloads.suggested.get(101)).toBe('Deputy/2025-03-16-task-2/setup.exe');
    downloads.finish(101, '/dl/Deputy/2025-03-16-task-2/setup.exe', 24);
    expect(await keeping).toMatchObject({ state: 'complete', path: '/dl/Deputy/2025-03-16-task-2/setup.exe', note: 'kept with the user\'s approval' });
    expect(await watch.discard('task-2', 'd1')).toMatchObject({ state: 'discarded', note: 'the saved file was deleted' });
    expect(downloads.removed).toEqual([101]);
    await expect(watch.keep('task-2', 'd9')).rejects.toThrow('There is no download d9 in this task; its downloads are d1');
  });

  it('knows programs and scripts by name and type, and saves under a plain file name', () => {
    expect(['setup.exe', 'install.msi', 'run.sh', 'App.dmg', 'tool.AppImage', 'x.apk'].every((n) => isExecutable(n, ''))).toBe(true);
    expect(isExecutable('download', 'application/x-msdownload')).toBe(true);
    expect(['report.pdf', 'photo.png', 'data.csv'].some((n) => isExecutable(n, 'application/pdf'))).toBe(false);
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a<b>:c?.txt')).toBe('a_b__c_.txt');
    expect(safeFileName('...')).toBe('download');
  });
});

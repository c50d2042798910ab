/** A download as Deputy reads it from chrome.downloads. */
export interface DownloadInfo {
  id: number;
  url: string;
  finalUrl: string;
  /** The absolute path, once the browser has chosen it ('' before). */
  filename: string;
  mime: string;
  fileSize: number;
  state: 'in_progress' | 'interrupted' | 'complete';
  danger: string;
  error?: string;
  /** Set when an extension started it (Deputy keeping a held download). */
  byExtensionId?: string;
}

/** The only code that touches chrome.downloads. */
export interface DownloadPorts {
  onCreated(listener: (item: DownloadInfo) => void): void;
  onChanged(listener: (id: number) => void): void;
  /**
   * Lets Deputy choose where a download is saved (relative to the downloads folder). The listener calls `suggest`
   * exactly once, possibly later (the browser waits for it).
   */
  onDeterminingFilename(listener: (item: DownloadInfo, suggest: (filename?: string) => void) => void): void;
  get(id: number): Promise<DownloadInfo | undefined>;
  cancel(id: number): Promise<void>;
  removeFile(id: number): Promise<void>;
  /** Starts a download of `url` saved as `filename` under the downloads folder; returns its id. */
  download(url: string, filename: string): Promise<number>;
  ownId(): string;
}

function toInfo(item: chrome.downloads.DownloadItem): DownloadInfo {
  return {
    id: item.id,
    url: item.url,
    finalUrl: item.finalUrl,
    filename: item.filename,
    mime: item.mime,
    fileSize: item.fileSize,
    state: item.state,
    danger: item.danger,
    ...(item.error ? { error: item.error } : {}),
    ...(item.byExtensionId ? { byExtensionId: item.byExtensionId } : {}),
  };
}

export const chromeDownloads: DownloadPorts = {
  onCreated: (listener) => chrome.downloads.onCreated.addListener((item) => listener(toInfo(item))),
  onChanged: (listener) => chrome.downloads.onChanged.addListener((delta) => listener(delta.id)),
  onDeterminingFilename: (listener) =>
    chrome.downloads.onDeterminingFilename.addListener((item, suggest) => {
      listener(toInfo(item), (filename) => suggest(filename ? { filename, conflictAction: 'uniquify' } : undefined));
      // Deputy may answer later (it waits a moment to learn which tab started the download).
      return true;
    }),
  get: async (id) => {
    const [item] = await chrome.downloads.search({ id });
    return item ? toInfo(item) : undefined;
  },
  cancel: (id) => chrome.downloads.cancel(id),
  removeFile: (id) => chrome.downloads.removeFile(id),
  download: (url, filename) => chrome.downloads.download({ url, filename, conflictAction: 'uniquify', saveAs: false }),
  ownId: () => chrome.runtime.id,
};

/** Whether this browser lets extensions see downloads (the permission may be missing in an old build). */
export function hasDownloads(): boolean {
  return typeof chrome !== 'undefined' && typeof chrome.downloads?.onCreated !== 'undefined';
}

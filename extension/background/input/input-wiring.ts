import type { ObservedDownload } from '../../../shared/agent/environment';
import { InputChannel } from '../../../shared/protocol';
import type { Logger } from '../../../shared/logger';
import { chromeDebugger, hasDebugger } from '../../platform/debugger';
import { chromeDownloads, hasDownloads } from '../../platform/downloads';
import { indexedDbFiles } from '../../platform/file-db';
import { isContentScriptSender, onRuntimeMessage } from '../../platform/runtime';
import { requestEvents } from '../../platform/request-events';
import type { Store } from '../../platform/storage';
import { listScriptableFrames, parentFrameOf } from '../../platform/tab-control';
import { sendToFrame } from '../../platform/tabs';
import { DebuggerSessions } from './debugger-session';
import { DialogWatch } from './dialogs';
import { DownloadWatch } from './downloads';
import { placeFrame } from './frame-place';
import { InputRelay } from './input-relay';
import { PageInput } from './page-input';

export interface InputServicesDeps {
  session: Store;
  /** Whether the user allows trusted input (Settings), read at each attach. */
  trustedInput: () => Promise<boolean>;
  onDownloads: (taskId: string, downloads: ObservedDownload[]) => void;
  log: Logger;
}

function isInputRequest(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'input' &&
    InputChannel.Request.safeParse(message).success
  );
}

/**
 * Trusted input and what the debugger reports (dialogs, file pickers, downloads), over the real browser. Listeners
 * are registered here synchronously, at worker start.
 */
export function createInputServices(deps: InputServicesDeps) {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const sessions = new DebuggerSessions({
    ports: hasDebugger() ? chromeDebugger : null,
    enabled: deps.trustedInput,
    store: deps.session,
    log: deps.log,
  });
  const frames = { listFrames: listScriptableFrames, sendToFrame };
  const relay = new InputRelay({
    sessions,
    placeFrame: (tabId, frameId, key) => placeFrame(frames, parentFrameOf, tabId, frameId, key),
    sleep,
    newId: () => crypto.randomUUID(),
    mac: /Mac/i.test(navigator.userAgent),
  });
  const dialogs = new DialogWatch({ sessions, store: deps.session, now: () => Date.now() });
  const downloads = hasDownloads()
    ? new DownloadWatch({
        ports: chromeDownloads,
        sessions,
        onUpdate: deps.onDownloads,
        sleep,
        now: () => Date.now(),
        log: deps.log,
      })
    : undefined;
  const files = indexedDbFiles();
  const input = new PageInput({
    sessions,
    relay,
    dialogs,
    ...(downloads ? { downloads } : {}),
    loadFile: (id) => files.load(id),
    requests: requestEvents,
  });
  onRuntimeMessage((message, sender, respond) => {
    if (!isContentScriptSender(sender) || sender.tab.id === undefined || !isInputRequest(message)) return false;
    void relay.handle(message, { tabId: sender.tab.id, frameId: sender.frameId ?? 0 }).then(respond);
    return true;
  });
  return {
    input,
    sessions,
    keepFile: (taskId: string, name: string, base64: string) => files.save(taskId, name, base64),
    /** Everything a task held, let go when it ends: its debugger attachments, its tabs' request listeners and its files. */
    async release(taskId: string): Promise<void> {
      requestEvents.release(taskId);
      await sessions.release(taskId);
      await files.deleteTask(taskId).catch(() => undefined);
    },
  };
}

export type InputServices = ReturnType<typeof createInputServices>;

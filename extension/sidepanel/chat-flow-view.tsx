import { useEffect, useState } from 'preact/hooks';
import type { ChatDetection } from '../../shared/protocol/chat-protocol';
import type { Launch, TaskRecord } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { ChatFactsEditor, DEFAULT_FACT_ROWS, factsOf, type FactRow } from '../ui/chat-facts-editor';
import { errorMessage } from '../ui/error-message';
import { GOAL_TEMPLATES, goalText } from '../ui/goal-templates';
import { TaskComposer } from '../ui/task-composer';
import { TaskProgress } from '../ui/task-progress';
import { isActiveTask } from '../ui/task-format';
import { siteOf } from '../ui/use-target-tab';

/**
 * The chat flow, where "Automate this chat" lands: the support widget found on the page (or what was checked when
 * none was), a goal box with templates, and the chat task once started.
 */
export function ChatFlowView(props: {
  client: BackgroundClient;
  tabId: number | undefined;
  tabUrl: string | undefined;
  launch: Launch | undefined;
  record: TaskRecord | undefined;
  /** A past chat goal to run again, from the history. */
  rerun: { text: string; at: number } | undefined;
  onRecord: (record: TaskRecord) => void;
  onOpenSettings?: (() => void) | undefined;
}) {
  const { client, tabId } = props;
  const pageUrl = props.launch?.pageUrl ?? props.tabUrl;
  const [detection, setDetection] = useState<ChatDetection | 'checking' | { error: string }>('checking');
  const [preset, setPreset] = useState<{ text: string; at: number } | undefined>(undefined);
  const [facts, setFacts] = useState<FactRow[]>(DEFAULT_FACT_ROWS);

  const detect = (): void => {
    if (tabId === undefined) return;
    setDetection('checking');
    client.call('chat.detect', { tabId }).then(setDetection, (failure: unknown) => setDetection({ error: errorMessage(failure) }));
  };
  useEffect(detect, [client, tabId, pageUrl]);
  // Many widgets show only a launcher until clicked: opening the chat lets detection see its message list.
  const openChat = (): void => {
    if (tabId === undefined) return;
    setDetection('checking');
    client.call('chat.open', { tabId }).then((opened) => setDetection(opened.detection), (failure: unknown) => setDetection({ error: errorMessage(failure) }));
  };

  const chatRecord = props.record?.flow === 'chat' ? props.record : undefined;
  return (
    <section class="flow" data-testid="chat-flow" aria-labelledby="chat-flow-title">
      <div class="card">
        <h2 id="chat-flow-title">Automate this chat</h2>
        <p>
          Support chat on <strong data-testid="chat-site">{siteOf(pageUrl)}</strong>
        </p>
        <DetectionLine detection={detection} onRetry={detect} onOpen={openChat} />
        <p class="muted">Deputy talks to support for you, hides your personal data, and stops for your approval before any commitment.</p>
      </div>
      <div class="templates" role="group" aria-label="Goal templates">
        {GOAL_TEMPLATES.map((template) => (
          <button key={template.id} type="button" class="chip-button" data-testid={`goal-${template.id}`} onClick={() => setPreset({ text: goalText(template.id), at: Date.now() })}>
            {template.label}
          </button>
        ))}
      </div>
      <ChatFactsEditor rows={facts} onChange={setFacts} />
      <TaskComposer
        onOpenSettings={props.onOpenSettings}
        client={client}
        tabId={tabId}
        flow="chat"
        facts={factsOf(facts)}
        label="Your goal for this chat"
        placeholder="e.g. Get a refund for order 1234, which arrived damaged"
        busy={isActiveTask(props.record)}
        preset={preset && (!props.rerun || preset.at > props.rerun.at) ? preset : props.rerun}
        onStarted={props.onRecord}
      />
      {chatRecord ? <TaskProgress client={client} record={chatRecord} onChange={props.onRecord} escapeStops onOpenSettings={props.onOpenSettings} /> : null}
    </section>
  );
}

function DetectionLine(props: { detection: ChatDetection | 'checking' | { error: string }; onRetry: () => void; onOpen: () => void }) {
  const { detection } = props;
  if (detection === 'checking') {
    return (
      <p class="detection" role="status" data-testid="chat-detection" data-found="checking">
        Looking for a chat widget…
      </p>
    );
  }
  if ('error' in detection) {
    return (
      <p class="detection detection--bad" role="status" data-testid="chat-detection" data-found="error">
        Could not look at this page: {detection.error}{' '}
        <button type="button" class="link-button" onClick={props.onRetry}>
          Check again
        </button>
      </p>
    );
  }
  return (
    <div class="detection" role="status" data-testid="chat-detection" data-found={String(detection.found)}>
      {detection.found ? (
        <p>
          Found: <strong data-testid="chat-vendor">{vendorName(detection.vendor)}</strong>
          <span class="muted"> ({Math.round(detection.confidence * 100)}% sure)</span>
        </p>
      ) : (
        <p>No chat widget found on this page.</p>
      )}
      <p class="muted" data-testid="chat-summary">
        {detection.summary}
      </p>
      <div class="button-row">
        {detection.found ? null : (
          <button type="button" class="link-button" data-testid="open-chat" onClick={props.onOpen}>
            Open the chat and check again
          </button>
        )}
        <button type="button" class="link-button" onClick={props.onRetry}>
          Check again
        </button>
      </div>
    </div>
  );
}

/** Detection calls a chat it knows only by its structure "generic"; the user reads what that means. */
export function vendorName(vendor: string | null): string {
  if (vendor === null) return 'a chat widget';
  return vendor === 'generic' ? 'a support chat (vendor not recognised)' : vendor;
}

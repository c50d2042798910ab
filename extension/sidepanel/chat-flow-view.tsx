import type { Launch } from '../../shared/protocol';
import { siteOf } from '../ui/use-target-tab';

/** The chat flow: where "Automate this chat" lands. The conversation itself is driven by the agent. */
export function ChatFlowView(props: { tabUrl: string | undefined; launch: Launch | undefined }) {
  const pageUrl = props.launch?.pageUrl ?? props.tabUrl;
  return (
    <section class="card" data-testid="chat-flow" aria-labelledby="chat-flow-title">
      <h2 id="chat-flow-title">Automate this chat</h2>
      <p>
        Support chat on <strong data-testid="chat-site">{siteOf(pageUrl)}</strong>
      </p>
      <p class="muted">
        Deputy talks to the site's support for you, redacts your personal data, and stops for your approval before
        any commitment.
      </p>
    </section>
  );
}

import { draftSendingText } from '../../shared/agent/support-draft-sending';
import type { ChatCaseResult, WrittenEscalation } from '../../shared/protocol';

const OUTCOME_LABELS: Record<string, string> = {
  agreed: 'Agreed',
  refused: 'Refused by support',
  needs_user: 'Handed to you',
  no_reply: 'Support did not answer',
};

export function caseOutcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome.replace(/_/g, ' ');
}

const WHO = { us: 'Deputy', them: 'Support', system: 'Notice' } as const;

/**
 * The written escalation a case drafted when its chat closed or stalled: where it stands first (sent with the user's
 * approval, declined, waiting), then where it goes and why, and the message itself as support would read it.
 */
function WrittenEscalationView(props: { written: WrittenEscalation }) {
  const { written } = props;
  const status = written.sending?.status ?? 'not_sent';
  const where = written.via === 'email' ? `to ${written.to}` : `for the contact form at ${written.to}`;
  return (
    <details class="case__written" data-testid="case-written" data-status={status} open={status !== 'sent'}>
      <summary>
        Written escalation: <strong data-testid="case-written-status">{draftSendingText(written)}</strong>
      </summary>
      <p class="muted">
        Drafted {where}, because {written.reason}.{' '}
        {written.mailto ? (
          <a href={written.mailto} data-testid="case-written-mailto">
            Open in your mail program
          </a>
        ) : null}
      </p>
      <p data-testid="case-written-subject">
        <strong>Subject:</strong> {written.subject}
      </p>
      <pre class="case__draft" data-testid="case-written-body">
        {written.body}
      </pre>
    </details>
  );
}

/** How a support-chat case ended: the outcome, the summary of what was agreed, the written escalation, and the transcript to check it by. */
export function ChatCaseResultView(props: { result: ChatCaseResult }) {
  const { result } = props;
  return (
    <section class="case" data-testid="chat-case" data-outcome={result.outcome} aria-label="Chat case result">
      <p class="case__outcome">
        <strong data-testid="case-outcome">{caseOutcomeLabel(result.outcome)}</strong>
      </p>
      <p data-testid="case-summary">{result.summary}</p>
      {result.written ? <WrittenEscalationView written={result.written} /> : null}
      <details class="case__transcript" data-testid="case-transcript">
        <summary>Transcript ({result.transcript.length} messages)</summary>
        <ol>
          {result.transcript.map((message, index) => (
            <li key={index} class={`case__message case__message--${message.author}`}>
              <span class="muted">{WHO[message.author]}: </span>
              {message.text}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

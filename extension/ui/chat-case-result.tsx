import type { ChatCaseResult } from '../../shared/protocol';

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

/** How a support-chat case ended: the outcome, the summary of what was agreed, and the transcript to check it by. */
export function ChatCaseResultView(props: { result: ChatCaseResult }) {
  const { result } = props;
  return (
    <section class="case" data-testid="chat-case" data-outcome={result.outcome} aria-label="Chat case result">
      <p class="case__outcome">
        <strong data-testid="case-outcome">{caseOutcomeLabel(result.outcome)}</strong>
      </p>
      <p data-testid="case-summary">{result.summary}</p>
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

import { useEffect, useRef, useState } from 'preact/hooks';
import type { PendingQuestion } from '../../shared/protocol';
import { errorMessage } from './error-message';

/** The agent's question (`ask_user`) with an answer box: Enter sends, Shift+Enter adds a line. */
export function QuestionCard(props: { question: PendingQuestion; onAnswer: (answer: string) => Promise<unknown> }) {
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setAnswer('');
    setSending(false);
    box.current?.focus();
  }, [props.question.id]);

  const send = (): void => {
    if (!answer.trim()) {
      setError('Type an answer first.');
      return;
    }
    setSending(true);
    setError('');
    props.onAnswer(answer).catch((failure: unknown) => {
      setSending(false);
      setError(errorMessage(failure));
    });
  };
  const id = `question-${props.question.id}`;
  return (
    <form
      class="card question"
      data-testid="question-card"
      aria-labelledby={`${id}-label`}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <h3 class="approval__title">Deputy asks</h3>
      <label id={`${id}-label`} for={id} class="question__text" data-testid="question-text">
        {props.question.text}
      </label>
      <textarea
        ref={box}
        id={id}
        rows={2}
        class="composer__input"
        data-testid="answer-input"
        value={answer}
        onInput={(event) => setAnswer(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div class="button-row">
        <button type="submit" class="button" data-testid="send-answer" disabled={sending}>
          Answer
        </button>
      </div>
      <p class="form-error" role="alert">
        {error}
      </p>
    </form>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import type { PendingQuestion } from '../../shared/protocol';
import { submitOnEnter } from './submit-on-enter';
import { useCardSend } from './use-card-send';

/** The agent's question (`ask_user`) with an answer box: Enter sends, Shift+Enter adds a line. */
export function QuestionCard(props: { question: PendingQuestion; onAnswer: (answer: string) => Promise<unknown> }) {
  const [answer, setAnswer] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const card = useCardSend(props.question.id, () => setAnswer(''));
  useEffect(() => box.current?.focus(), [props.question.id]);
  const { sending, error } = card;

  const send = (): void => {
    if (!answer.trim()) {
      card.setError('Type an answer first.');
      return;
    }
    card.send(() => props.onAnswer(answer));
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
        onKeyDown={submitOnEnter(send)}
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

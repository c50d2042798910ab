import type { ComponentChildren } from 'preact';
import type { AgentState } from '../../shared/agent/agent-state';
import type { TaskNote } from '../../shared/protocol';
import { StepThumbnail } from './step-shots';
import { MARKS, VERDICTS } from './step-wording';
import { threadEntries, type ThreadEntry } from './task-format';

/** Who said what, for those who do not see the bubbles' sides. */
const SPEAKERS: Record<Exclude<ThreadEntry['kind'], 'step'>, string> = {
  user: 'You',
  words: 'Deputy',
  them: 'Support',
  us: 'Deputy to support',
};

/**
 * The task as a conversation: what the user asked (and each follow-up), the model's own words as it works, every
 * action as a line worded by what happened (done, refused by you, blocked by a rule, failed, gave up) with a distinct
 * mark and what verification found, and in a support chat the messages of both sides as bubbles. What the model
 * worked with (element numbers, raw results, untrusted-content tags) waits behind "details". Entries are only ever
 * appended and each has a fixed shape, so the thread grows downward without moving what is already on screen; what
 * is still being written (`live`) comes last.
 */
export function TaskThread(props: {
  task: string;
  agent: AgentState | null;
  notes?: readonly TaskNote[] | undefined;
  active: boolean;
  paused?: boolean;
  chat?: boolean;
  live?: ComponentChildren;
  /** The small screenshot of each step, by step, shown on the step's first line; a click opens the full one. */
  thumbnails?: ReadonlyMap<number, string>;
  onOpenShot?: (step: number) => void;
}) {
  const { thumbnails, onOpenShot } = props;
  // Once a finished task is known to keep screenshots, a step without one says so rather than showing nothing.
  const missingShots = !props.active && (thumbnails?.size ?? 0) > 0;
  const steps = props.agent?.steps ?? [];
  const entries = threadEntries({ steps, notes: props.notes, paused: props.paused === true, task: props.task, followUps: props.agent?.followUps, chatBubbles: props.chat === true });
  const empty = !entries.some((entry) => entry.kind !== 'user');
  return (
    <section class={`thread${props.chat ? ' thread--chat' : ''}`} aria-label={props.chat ? 'Chat' : 'Conversation'}>
      <ol class="thread__list" data-testid="steps">
        {entries.map((entry) => (entry.kind === 'step' ? <StepItem key={entry.key} line={entry} thumbnails={thumbnails} onOpenShot={onOpenShot} missingShots={missingShots} /> : <Bubble key={entry.key} entry={entry} />))}
        {empty && !props.live ? (
          <li class="muted steps__empty">{props.paused ? 'Paused before the first step.' : props.active ? 'Looking at the page…' : 'No steps were taken.'}</li>
        ) : null}
        {props.live ? <li class="bubble bubble--words bubble--live">{props.live}</li> : null}
      </ol>
    </section>
  );
}

function Bubble(props: { entry: ThreadEntry }) {
  const { entry } = props;
  const kind = entry.kind as keyof typeof SPEAKERS;
  return (
    <li class={`bubble bubble--${kind}`} data-testid={`thread-${kind}`}>
      <span class="bubble__who">{SPEAKERS[kind]}</span>
      <span class="bubble__text">{entry.text}</span>
    </li>
  );
}

function StepItem(props: { line: ThreadEntry; thumbnails: ReadonlyMap<number, string> | undefined; onOpenShot: ((step: number) => void) | undefined; missingShots: boolean }) {
  const { line, thumbnails, onOpenShot } = props;
  return (
    <li class={`step step--${line.state}`} data-testid="step" data-state={line.state}>
      <span class="step__mark" aria-hidden="true" title={VERDICTS[line.state]}>
        {MARKS[line.state]}
      </span>
      <span class="step__body">
        <span class="step__text" data-testid="step-text">
          {line.text}
        </span>
        {line.check ? (
          <span class="step__check" data-testid="step-check">
            {line.check}
          </span>
        ) : null}
        {line.tokens ? (
          <span class="step__tokens muted" data-testid="step-tokens">
            {line.tokens}
          </span>
        ) : null}
        {line.shotStep !== undefined && onOpenShot && thumbnails?.has(line.shotStep) ? (
          <StepThumbnail step={line.shotStep} src={thumbnails.get(line.shotStep) ?? ''} onOpen={onOpenShot} />
        ) : line.shotStep !== undefined && props.missingShots ? (
          <span class="step__check" data-testid="step-no-screenshot">
            No screenshot of this step: its tab was not in front, or a dialog held the page.
          </span>
        ) : null}
        {line.details ? (
          <details class="step__details" data-testid="step-details">
            <summary>details</summary>
            {/* It scrolls when long, so the keyboard must reach it. */}
            <pre tabIndex={0}>{line.details}</pre>
          </details>
        ) : null}
      </span>
    </li>
  );
}

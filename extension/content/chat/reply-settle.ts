import type { ChatAuthor, ChatBaseline, WaitStatus } from '../../../shared/protocol';
import { messagesSince } from './transcript-ledger';

export interface SettleOptions {
  baseline: ChatBaseline;
  /** How long the reply must stay unchanged, with no typing indicator, to count as finished. */
  quietMs: number;
  timeoutMs: number;
  startedAt: number;
}

export interface SettleObservation {
  messages: readonly { author: ChatAuthor; text: string }[];
  typing: boolean;
  /** Anything else that belongs to the reply (quick replies, forms, upload prompts), as a comparable string. */
  extras: string;
}

export interface SettleVerdict {
  status: Exclude<WaitStatus, 'pending'> | 'waiting';
  typingSeen: boolean;
  /** Messages from the other side (or system notes) since the baseline. */
  replies: number;
}

/**
 * Decides when the other side has finished answering: at least one new message of theirs, no typing indicator, and
 * nothing changed for `quietMs` (support often answers in several bursts with typing in between, and streamed
 * replies grow in place). Time comes from the caller, so tests drive it with a fake clock.
 */
export class ReplySettle {
  private lastFingerprint: string | undefined;
  private lastChangeAt: number;
  private typingSeen = false;

  constructor(private readonly options: SettleOptions) {
    this.lastChangeAt = options.startedAt;
  }

  observe(now: number, observation: SettleObservation): SettleVerdict {
    const fresh = messagesSince(observation.messages, this.options.baseline);
    const replies = fresh.filter((message) => message.author !== 'us').length;
    const fingerprint = JSON.stringify([fresh, observation.typing, observation.extras]);
    if (fingerprint !== this.lastFingerprint) {
      this.lastFingerprint = fingerprint;
      this.lastChangeAt = now;
    }
    if (observation.typing) this.typingSeen = true;
    const quietFor = now - this.lastChangeAt;
    if (replies > 0 && !observation.typing && quietFor >= this.options.quietMs) {
      return { status: 'replied', typingSeen: this.typingSeen, replies };
    }
    if (now - this.options.startedAt >= this.options.timeoutMs) return { status: 'timeout', typingSeen: this.typingSeen, replies };
    return { status: 'waiting', typingSeen: this.typingSeen, replies };
  }
}

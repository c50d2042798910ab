import { z } from 'zod';
import { LoopEvent } from '../../../shared/protocol/loop-protocol';
import type { Store } from '../../platform/storage';

export interface LoopEventLogLimits {
  /** Events kept per loop; past it the fixer's progress lines go first, then the oldest events. */
  perLoop: number;
  /** Loops kept; the one heard from least recently goes first. */
  loops: number;
}

const DEFAULT_LIMITS: LoopEventLogLimits = { perLoop: 400, loops: 5 };
const KEY = 'loopEvents';

const Saved = z.array(z.object({ loopId: z.string(), events: z.array(LoopEvent) }));
type Saved = z.infer<typeof Saved>;

/**
 * The events of the last few fix loops, kept by the background in session storage as they arrive from the host. A side
 * panel opened mid-loop asks for them (`loop.log`) to draw the iterations it missed; `loop.status` alone only gives the
 * current step. Bounded, because a long fixer run sends many progress lines and session storage is small. Writes are
 * chained so two events arriving together never overwrite each other.
 */
export class LoopEventLog {
  private loaded: Promise<Saved> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly limits: LoopEventLogLimits = DEFAULT_LIMITS,
  ) {}

  append(event: LoopEvent): Promise<void> {
    this.writing = this.writing.then(async () => {
      const saved = await this.load();
      let entry = saved.find((candidate) => candidate.loopId === event.loopId);
      if (entry) saved.splice(saved.indexOf(entry), 1);
      else entry = { loopId: event.loopId, events: [] };
      entry.events = trim([...entry.events, event], this.limits.perLoop);
      saved.push(entry);
      while (saved.length > this.limits.loops) saved.shift();
      await this.store.set(KEY, saved);
    });
    // A failed write loses one event from the log, never the live stream: the chain goes on.
    this.writing = this.writing.catch(() => undefined);
    return this.writing;
  }

  async events(loopId: string): Promise<LoopEvent[]> {
    await this.writing;
    const saved = await this.load();
    return saved.find((entry) => entry.loopId === loopId)?.events ?? [];
  }

  private load(): Promise<Saved> {
    this.loaded ??= this.store.get(KEY, Saved).then((saved) => saved ?? []);
    return this.loaded;
  }
}

/** Drops the oldest progress lines first (they only matter while they are current), then the oldest events. */
function trim(events: LoopEvent[], max: number): LoopEvent[] {
  if (events.length <= max) return events;
  let excess = events.length - max;
  const kept: LoopEvent[] = [];
  const lastIndex = events.length - 1;
  events.forEach((event, index) => {
    if (excess > 0 && event.type === 'fixer.progress' && index !== lastIndex) {
      excess -= 1;
      return;
    }
    kept.push(event);
  });
  return kept.slice(kept.length - max);
}

import { describeNothing, describeReceived, describeTrigger, describeWaiting, formatClock } from '../../shared/loop-output-text';
import { describeMailEvent } from '../../shared/mail-text';
import type { DocumentVerdict, FailureItem, LoopEvent, LoopOutcome, LoopSnapshot, LoopStep } from '../../shared/protocol/loop-protocol';

export { formatClock };

type WaitingEvent = Extract<LoopEvent, { type: 'output.waiting' }>;

/** A wait for the job's output in progress: what is awaited, and since when (the panel ticks the time on). */
export interface OutputWait {
  wait: Pick<WaitingEvent, 'source' | 'where' | 'rules' | 'timeoutSeconds'>;
  since: number;
}

/** One round of the loop as the panel lists it: what failed, what the fixer did, and how far the fix got. */
export interface IterationView {
  iteration: number;
  /** What started the job and what came back ("Triggered: POST https://...: HTTP 202"). */
  trigger?: string;
  /** The wait for the output, while it lasts. */
  waiting?: OutputWait;
  /** What the mailbox wait saw: mails passed over and why, lost connections, attachments skipped (the last few). */
  mail: string[];
  /** What arrived: the file, its size, the mail it came in. */
  received?: string;
  /** Nothing usable came, and what to check. */
  nothing?: string;
  /** Undefined until the check of this iteration has answered. */
  checkPassed?: boolean;
  failures: FailureItem[];
  /** Document mode: the judge's counts by severity, hollowness and the iteration's report. */
  document?: DocumentVerdict;
  fixSummary?: string;
  fixerCostUsd?: number;
  turns?: number;
  fixerError?: boolean;
  /** Why the fixer's run ended in an error: auth, budget, max_turns, api, ... */
  fixerErrorKind?: string;
  /** Why Deputy rolled the fix back, when it did. */
  rejected?: string[];
  /** The validated diff in one line ("1 file(s), +1 -1"), or "no change". */
  diff?: string;
  commit?: string;
  pushed?: boolean;
  rebased?: boolean;
  /** "ready after 12 s" once the deploy's health check answered. */
  deploy?: string;
  /** A step that failed in this iteration, with the host's reason. */
  failedStep?: { step: LoopStep; detail: string };
}

export interface LoopView {
  loopId: string;
  repo: string;
  branch?: string;
  running: boolean;
  iteration: number;
  step?: LoopStep;
  costUsd: number;
  startedAt?: number;
  /** When the loop finished (for the elapsed time of a finished loop). */
  endedAt?: number;
  /** The fixer's current action ("Edit src/math.mjs") while it works. */
  action?: string;
  outcome?: LoopOutcome;
  reason?: string;
  reportPath?: string;
  stateFile?: string;
  iterations: IterationView[];
  /** Warnings and errors the host sent, newest last (at most a few). */
  notices: string[];
}

const MAX_NOTICES = 5;
const MAX_MAIL_LINES = 5;
const SAID_ELSEWHERE = new Set(['waiting', 'connected', 'nothing_came', 'no_usable_attachment']);

/**
 * Folds a loop's events (from the background's log and live) over the host's snapshot into what the panel draws. The
 * snapshot gives the state when the panel asked; later events move it on. Events of other loops are ignored.
 */
export function reduceLoop(loopId: string, events: readonly LoopEvent[], snapshot?: LoopSnapshot): LoopView {
  const view: LoopView = {
    loopId,
    repo: snapshot?.repo ?? '',
    running: snapshot?.running ?? true,
    iteration: snapshot?.iteration ?? 0,
    costUsd: snapshot?.costUsd ?? 0,
    iterations: [],
    notices: [],
    ...(snapshot ? { step: snapshot.step, startedAt: snapshot.startedAt, stateFile: snapshot.stateFile } : {}),
    ...(snapshot?.outcome ? { outcome: snapshot.outcome } : {}),
    ...(snapshot?.reason ? { reason: snapshot.reason } : {}),
  };
  const byNumber = new Map<number, IterationView>();
  const iteration = (number: number): IterationView => {
    let found = byNumber.get(number);
    if (!found) {
      found = { iteration: number, failures: [], mail: [] };
      byNumber.set(number, found);
    }
    return found;
  };
  let eventCost = 0;
  let finishedCost: number | undefined;

  for (const event of events) {
    if (event.loopId !== loopId) continue;
    view.iteration = Math.max(view.iteration, event.iteration);
    view.startedAt ??= event.at;
    switch (event.type) {
      case 'loop.started':
        view.repo = event.repo;
        view.branch = event.branch;
        view.step = event.step;
        view.running = true;
        finishedCost = undefined;
        delete view.outcome;
        delete view.reason;
        delete view.reportPath;
        delete view.endedAt;
        break;
      case 'step.started':
        view.step = event.step;
        delete view.action;
        if (event.iteration > 0) iteration(event.iteration);
        break;
      case 'step.finished':
        if (event.step === 'output') delete iteration(event.iteration).waiting;
        if (!event.ok) iteration(event.iteration).failedStep = { step: event.step, detail: event.detail ?? '' };
        else if (event.step === 'validate' && event.detail && !event.detail.startsWith('rejected')) iteration(event.iteration).diff = event.detail;
        else if (event.step === 'deploy' && event.detail) iteration(event.iteration).deploy = event.detail;
        break;
      case 'check.result': {
        const entry = iteration(event.iteration);
        entry.checkPassed = event.passed;
        entry.failures = event.failures;
        if (event.document) entry.document = event.document;
        else delete entry.document;
        break;
      }
      case 'fixer.progress':
        view.action = event.action;
        break;
      case 'fixer.finished': {
        const entry = iteration(event.iteration);
        entry.fixSummary = event.summary;
        entry.fixerCostUsd = event.costUsd;
        entry.fixerError = event.isError;
        if (event.errorKind) entry.fixerErrorKind = event.errorKind;
        if (event.turns !== undefined) entry.turns = event.turns;
        eventCost += event.costUsd;
        delete view.action;
        break;
      }
      case 'fix.rejected':
        iteration(event.iteration).rejected = event.reasons;
        break;
      case 'commit.created':
        iteration(event.iteration).commit = event.commit;
        break;
      case 'push.verified': {
        const entry = iteration(event.iteration);
        entry.commit = event.commit;
        entry.pushed = true;
        entry.rebased = event.rebased;
        break;
      }
      case 'trigger.sent':
        iteration(event.iteration).trigger = describeTrigger(event);
        break;
      case 'output.waiting':
        iteration(event.iteration).waiting = { wait: event, since: event.at - event.waitedSeconds * 1000 };
        break;
      case 'output.mail':
        // The wait's start, the saved file and the end of a wait that found nothing usable are said by the waiting,
        // received and "nothing came" lines; a file saved under another name than the mail gave it (a path in it, a
        // name taken) is said here.
        if (!SAID_ELSEWHERE.has(event.mail.type) && !(event.mail.type === 'saved' && event.mail.mailName === undefined)) {
          const entry = iteration(event.iteration);
          entry.mail = [...entry.mail, describeMailEvent(event.mail)].slice(-MAX_MAIL_LINES);
        }
        break;
      case 'output.received': {
        const entry = iteration(event.iteration);
        entry.received = describeReceived(event);
        delete entry.waiting;
        break;
      }
      case 'output.none': {
        const entry = iteration(event.iteration);
        entry.nothing = describeNothing(event);
        delete entry.waiting;
        break;
      }
      case 'notice':
        if (event.level !== 'info') view.notices = [...view.notices, event.message].slice(-MAX_NOTICES);
        break;
      case 'loop.finished':
        view.running = false;
        view.outcome = event.outcome;
        view.reason = event.reason;
        view.endedAt = event.at;
        finishedCost = event.costUsd;
        delete view.action;
        for (const entry of byNumber.values()) delete entry.waiting;
        // A stop ends the step it interrupts with an error; that is the stop, not a failure of the step.
        if (event.outcome === 'stopped') delete byNumber.get(event.iteration)?.failedStep;
        if (event.reportPath) view.reportPath = event.reportPath;
        break;
    }
  }
  // The snapshot counts fixer runs the log may not hold (a resumed loop, a trimmed log); the events count runs since.
  view.costUsd = finishedCost ?? Math.max(view.costUsd, eventCost);
  view.iterations = [...byNumber.values()].sort((a, b) => a.iteration - b.iteration);
  return view;
}

/** Joins the background's log with events heard live, each once, in the order they happened. */
export function mergeEvents(logged: readonly LoopEvent[], live: readonly LoopEvent[]): LoopEvent[] {
  const seen = new Set(logged.map((event) => JSON.stringify(event)));
  const merged = [...logged];
  for (const event of live) {
    const key = JSON.stringify(event);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(event);
  }
  // A stable sort: events of the same millisecond keep the order they arrived in.
  return merged.sort((a, b) => a.at - b.at);
}

const OUTCOME_LABELS: Record<LoopOutcome, string> = {
  passed: 'Passed',
  stuck: 'Stuck',
  needs_human: 'Needs a human',
  budget: 'Budget used up',
  stopped: 'Stopped',
  failed: 'Failed',
};

const FIXER_ERRORS: Record<string, string> = {
  auth: 'Claude Code is not signed in or its key was refused',
  budget: 'the run reached the cost budget',
  max_turns: 'the run reached its turn limit',
  session_missing: 'the session to continue was gone',
  api: 'the model API failed',
  execution: 'Claude Code failed during the run',
};

/** What the side panel says about a fixer run that ended in an error; its edits were always rolled back. */
export function fixerErrorText(kind: string | undefined): string {
  return `${(kind && FIXER_ERRORS[kind]) ?? 'the fixer reported an error'}; its changes were rolled back`;
}

export function outcomeLabel(outcome: LoopOutcome): string {
  return OUTCOME_LABELS[outcome];
}

/** The live line of a wait for the output, ticking with `now`. */
export function waitingLine(waiting: OutputWait, now: number): string {
  return describeWaiting(waiting.wait, Math.max(0, now - waiting.since));
}

/** How long the loop has run: to now while it runs, to its end once finished (unknown when no event told it). */
export function loopElapsedMs(view: LoopView, now: number): number | undefined {
  if (view.startedAt === undefined) return undefined;
  const end = view.running ? now : view.endedAt;
  return end === undefined ? undefined : Math.max(0, end - view.startedAt);
}

/** The status line: iteration, step, elapsed and cost (the fixer's current action has a line of its own). */
export function statusLine(view: LoopView, now: number): string {
  const elapsed = loopElapsedMs(view, now);
  const parts = [`Iteration ${view.iteration}`, view.step ?? 'starting'];
  if (elapsed !== undefined) parts.push(formatClock(elapsed));
  parts.push(`$${view.costUsd.toFixed(2)}`);
  return parts.join(' · ');
}

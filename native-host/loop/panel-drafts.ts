import { AppError } from '../../shared/errors';

/** How long the side panel's "Describe a loop" waits for the model (both tries) before it says so; below the background's own bound. */
export const DEFAULT_DRAFT_DEADLINE_MS = 150_000;

export function draftDeadlineMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DEPUTY_DESCRIBE_TIMEOUT_MS;
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_DRAFT_DEADLINE_MS;
}

export interface PanelDrafts {
  /** Runs one draft under its own deadline; `draftId` lets cancel() stop it. */
  run<T>(draftId: string | undefined, model: string, draft: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Stops the draft with this id; false when none is running. */
  cancel(draftId: string): boolean;
}

/**
 * The drafts the side panel is waiting for. A slow model is not cut off by a generic call timeout: each draft has
 * its own deadline (the model is named in the error), and the user can cancel it, which aborts the model request.
 */
export function createPanelDrafts(deadlineMs: () => number = () => draftDeadlineMs()): PanelDrafts {
  const running = new Map<string, AbortController>();
  return {
    async run(draftId, model, draft) {
      const controller = new AbortController();
      const ms = deadlineMs();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, ms);
      if (draftId) running.get(draftId)?.abort();
      if (draftId) running.set(draftId, controller);
      // Answer as soon as the draft is stopped, even if the model's client is slow to notice the abort.
      const stopped = new Promise<never>((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      try {
        return await Promise.race([draft(controller.signal), stopped]);
      } catch (error) {
        if (timedOut) {
          throw new AppError('timeout', `${model} did not finish the draft within ${Math.round(ms / 1000)} s. Try again, choose a faster model in Settings, or write deputy.loop.json yourself (deputy loop --help lists its fields)`, { cause: error });
        }
        if (controller.signal.aborted) throw new AppError('cancelled', 'Drafting was cancelled; nothing was started', { cause: error });
        throw error;
      } finally {
        clearTimeout(timer);
        if (draftId && running.get(draftId) === controller) running.delete(draftId);
      }
    },
    cancel(draftId) {
      const controller = running.get(draftId);
      if (!controller) return false;
      controller.abort();
      running.delete(draftId);
      return true;
    },
  };
}

export const panelDrafts = createPanelDrafts();

import { randomUUID } from 'node:crypto';
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { AgentState } from '../../../shared/agent/agent-state';
import type { ApprovalAnswer } from '../../../shared/agent/approval';
import type { Provider } from '../../../shared/agent/providers/provider';
import { AppError } from '../../../shared/errors';
import { DESKTOP_THUMBNAIL_MAX_BASE64, DesktopRunParams, type DesktopTaskEvent, type DesktopThumbnail } from '../../../shared/protocol';
import type { Logger } from '../../log/logger';
import { runDesktopTask, type DesktopTaskOptions } from './run-desktop-task';
import { loadCappedDesktopTask } from './saved-desktop-task';

/** What a panel task stopped at its cap says to do: the panel's own control, not the CLI's --resume. */
export const PANEL_CAP_NEXT = 'set a new cap under the task in the side panel and press Continue';

export interface DesktopRunsDeps {
  desktop: DesktopTaskOptions['desktop'];
  /** Folder under which each run gets its own folder. */
  runsRoot: string;
  /** Builds the model from the settings the side panel sent; throws a bad_config AppError that says what to fix. */
  createProvider: (settings: unknown) => Provider;
  emit: (event: DesktopTaskEvent) => void;
  /** A small JPEG of a step's screenshot for the side panel; without it no screenshot events are sent. */
  thumbnail?: (jpegBase64: string) => Promise<DesktopThumbnail>;
  log: Logger;
  now: () => number;
}

interface Pending {
  kind: 'approval' | 'question';
  resolve(answer: { approved?: boolean; text?: string }): void;
}

/**
 * Desktop tasks started over the host channel (the side panel's desktop mode). Steps, approvals and questions go out
 * as `desktop.task` events; answers come back through `answer`, and only for an id the task is waiting on. One task
 * runs at a time, since both would share one mouse and keyboard.
 */
export class DesktopRuns {
  private current: { runId: string; controller: AbortController; pending: Map<string, Pending> } | undefined;

  constructor(private readonly deps: DesktopRunsDeps) {}

  async start(input: DesktopRunParams): Promise<{ runId: string; runDir: string }> {
    this.refuseWhileRunning();
    const params = DesktopRunParams.parse(input);
    const provider = this.deps.createProvider(params.provider);
    const continueFrom = params.resumeRunDir === undefined ? undefined : await this.cappedTask(params.resumeRunDir);
    // Reading the saved task took a moment: another start may have come first.
    this.refuseWhileRunning();
    const runId = randomUUID();
    const runDir = continueFrom ? resolve(params.resumeRunDir ?? '') : join(this.deps.runsRoot, `${new Date(this.deps.now()).toISOString().replace(/[:.]/g, '-')}-desktop`);
    const thumbnail = this.deps.thumbnail;
    const run = { runId, controller: new AbortController(), pending: new Map<string, Pending>() };
    this.current = run;
    const wait = (kind: Pending['kind'], signal?: AbortSignal): { id: string; answer: Promise<{ approved?: boolean; text?: string }> } => {
      const id = randomUUID();
      const answer = new Promise<{ approved?: boolean; text?: string }>((resolve, reject) => {
        run.pending.set(id, { kind, resolve });
        signal?.addEventListener('abort', () => reject(new AppError('cancelled', 'Stopped by the user.')), { once: true });
      });
      return { id, answer };
    };
    const finished = runDesktopTask({
      task: params.task,
      provider,
      desktop: this.deps.desktop,
      runDir,
      mode: params.mode,
      dryRun: params.dryRun,
      width: params.width,
      quality: params.quality,
      ...(params.displayId === undefined ? {} : { displayId: params.displayId }),
      ...(params.maxSteps === undefined ? {} : { maxSteps: params.maxSteps }),
      ...(params.maxCostUsd === undefined ? {} : { maxCostUsd: params.maxCostUsd }),
      ...(continueFrom ? { continueFrom } : {}),
      costCapNext: PANEL_CAP_NEXT,
      signal: run.controller.signal,
      log: this.deps.log,
      now: this.deps.now,
      onTrace: (record) => this.deps.emit({ runId, kind: 'trace', record: { ...record } }),
      ...(thumbnail ? { onScreenshot: (shot) => this.sendThumbnail(runId, shot.step, shot.pngPath, shot.jpegBase64, thumbnail) } : {}),
      approve: async (request, signal): Promise<ApprovalAnswer> => {
        const { id, answer } = wait('approval', signal);
        this.deps.emit({ runId, kind: 'approval', id, intent: request.intent, reason: request.reason, classes: request.classes });
        const reply = await answer;
        return reply.approved === true ? { approved: true } : { approved: false, ...(reply.text ? { note: reply.text } : {}) };
      },
      askUser: async (question, signal) => {
        const { id, answer } = wait('question', signal);
        this.deps.emit({ runId, kind: 'question', id, question });
        return (await answer).text ?? 'The user did not answer.';
      },
    });
    void finished
      .then(
        ({ state, stoppedByHotkey }) => ({ status: state.status, summary: state.outcome?.summary ?? state.endReason ?? '', stoppedByHotkey }),
        (error: unknown) => ({ status: 'failed', summary: error instanceof Error ? error.message : String(error), stoppedByHotkey: false }),
      )
      .then((end) => {
        this.current = undefined;
        this.deps.emit({ runId, kind: 'finished', runDir, ...end });
      });
    return { runId, runDir };
  }

  private refuseWhileRunning(): void {
    if (this.current) throw new AppError('bad_request', `A desktop task is already running (${this.current.runId}); stop it first with desktop.stop.`);
  }

  /** The task a run folder of this host saved at its cost cap; a folder elsewhere is refused (the panel names only its own runs). */
  private async cappedTask(runDir: string): Promise<AgentState> {
    const inside = relative(resolve(this.deps.runsRoot), resolve(runDir));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw new AppError('bad_request', `${runDir} is not a desktop run folder of this host (they are under ${this.deps.runsRoot}); continue a task from the side panel's desktop view.`);
    }
    return loadCappedDesktopTask(runDir);
  }

  /**
   * Made beside the loop, not in it: the next step does not wait for the panel's image, and a thumbnail that fails or
   * comes out too large is left out (the step itself is in the run folder either way).
   */
  private sendThumbnail(runId: string, step: number, pngPath: string, jpegBase64: string, make: (jpeg: string) => Promise<DesktopThumbnail>): void {
    make(jpegBase64).then(
      (thumbnail) => {
        if (thumbnail.base64.length <= DESKTOP_THUMBNAIL_MAX_BASE64) this.deps.emit({ runId, kind: 'screenshot', step, pngPath, thumbnail });
      },
      (error: unknown) => this.deps.log.warn('thumbnail failed', { step, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Delivers the user's answer; false when the task is not waiting on that id (already answered, or stopped). */
  answer(params: { runId: string; id: string; approved?: boolean; text?: string }): boolean {
    const run = this.current;
    if (!run || run.runId !== params.runId) return false;
    const pending = run.pending.get(params.id);
    if (!pending) return false;
    run.pending.delete(params.id);
    pending.resolve({ ...(params.approved === undefined ? {} : { approved: params.approved }), ...(params.text === undefined ? {} : { text: params.text }) });
    return true;
  }

  stop(runId: string): boolean {
    if (!this.current || this.current.runId !== runId) return false;
    this.current.controller.abort();
    return true;
  }
}

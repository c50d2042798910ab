import type { ApprovalAnswer, ApprovalRequest } from '../../../shared/agent/approval';
import { AppError } from '../../../shared/errors';
import type { ApprovalDecision, TaskRecord } from '../../../shared/protocol';
import type { TaskCore } from './task-runner-deps';

/**
 * What a running task asks the user, and their answers: approval cards and questions. The answers a run waits for live
 * only in memory; the card or question is saved on the task, so a restarted worker shows it again and the resumed
 * task, asking for the same call, gets the same card (and an answer given before it asked again).
 */
export class TaskAsks {
  private readonly approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  private readonly questions = new Map<string, (answer: string) => void>();
  /** Answers given to a restored approval card before its resumed task asked again, by task. */
  private readonly earlyAnswers = new Map<string, { step: number; callId: string; answer: ApprovalAnswer }>();

  /** `runs`: the runner's runs in this worker, by task id (their abort signals). */
  constructor(
    private readonly core: TaskCore,
    private readonly runs: ReadonlyMap<string, AbortController>,
  ) {}

  get pendingApprovals(): number {
    return this.approvals.size;
  }

  async approve(taskId: string, approvalId: string, decision: ApprovalDecision, note?: string): Promise<TaskRecord> {
    const record = await this.core.deps.tasks.get(taskId);
    const resolve = this.approvals.get(approvalId);
    const approval = record?.approval;
    // A resumed task that has not asked again yet takes the answer when it does (it asks with the same card).
    const early = !resolve && this.runs.has(taskId);
    if (!record || !approval || approval.id !== approvalId || (!resolve && !early)) {
      throw new AppError('not_found', 'That approval is no longer pending (the task moved on or was restarted): answer the card shown now.');
    }
    // "Approve for site" approves the destination the card names, for this task only, and only for low-risk steps: a
    // payment, an account change or a post of the user's data is approved once or not at all. Sites for every task are
    // added by the user in Settings.
    if (decision === 'approve_site' && !approval.siteApproval) {
      throw new AppError('forbidden', 'This step can only be approved once: "Approve for site" is for low-risk steps such as opening a page. Approve it, or reject it.');
    }
    const answer: ApprovalAnswer = { approved: decision !== 'reject', ...(note ? { note } : {}), ...(decision === 'approve_site' ? { scope: 'site' as const } : {}) };
    this.approvals.delete(approvalId);
    if (!resolve) this.earlyAnswers.set(taskId, { step: approval.step, callId: approval.callId, answer });
    const updated = await this.core.change(taskId, (r) => ({ ...r, approval: null, status: 'running' }));
    resolve?.(answer);
    return updated ?? record;
  }

  async answer(taskId: string, questionId: string, answer: string): Promise<TaskRecord> {
    const record = await this.core.deps.tasks.get(taskId);
    const resolve = this.questions.get(questionId);
    if (!record || record.question?.id !== questionId || !resolve) {
      throw new AppError('not_found', 'That question is no longer pending: answer the one shown now.');
    }
    this.questions.delete(questionId);
    const updated = await this.core.change(taskId, (r) => ({ ...r, question: null, status: 'running' }));
    resolve(answer);
    return updated ?? record;
  }

  /** A stopped task's pending card and question are answered for the user: they stopped it. */
  answerStopped(record: TaskRecord): void {
    if (record.approval) this.approvals.get(record.approval.id)?.({ approved: false, stopped: true, note: 'The user stopped the task.' });
    if (record.question) this.questions.get(record.question.id)?.('The user stopped the task.');
  }

  /** Asks the user; a resumed task asking for the same call again shows the same card (same id), not a new one. */
  async waitForApproval(taskId: string, request: ApprovalRequest): Promise<ApprovalAnswer> {
    const previous = (await this.core.deps.tasks.get(taskId))?.approval;
    const early = this.earlyAnswers.get(taskId);
    this.earlyAnswers.delete(taskId);
    if (early && early.step === request.step && early.callId === request.callId) return early.answer;
    const same = previous && previous.step === request.step && previous.callId === request.callId ? previous : undefined;
    const id = same?.id ?? this.core.deps.newId();
    // A stop that came while the card was being looked up found nothing to answer: answer for it here.
    if (this.runs.get(taskId)?.signal.aborted) return { approved: false, stopped: true, note: 'The user stopped the task.' };
    return new Promise((resolve) => {
      this.approvals.set(id, resolve);
      const { step, callId, tool, intent, classes, reason, url, kind, destination, sends, actsOn, consequence, siteApproval, warning } = request;
      const data = { kind, destination, sends, actsOn, consequence, siteApproval, warning };
      const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
      void this.core.change(taskId, (r) => ({
        ...r,
        status: 'awaiting_approval',
        approval: { id, step, callId, tool, intent, classes, reason, url, ...defined, askedAt: same?.askedAt ?? this.core.deps.now() },
      }));
    });
  }

  async waitForAnswer(taskId: string, question: string): Promise<string> {
    const previous = (await this.core.deps.tasks.get(taskId))?.question;
    const id = previous?.text === question ? previous.id : this.core.deps.newId();
    if (this.runs.get(taskId)?.signal.aborted) return 'The user stopped the task.';
    return new Promise((resolve) => {
      this.questions.set(id, resolve);
      void this.core.change(taskId, (r) => ({ ...r, status: 'awaiting_user', question: { id, text: question, askedAt: this.core.deps.now() } }));
    });
  }
}

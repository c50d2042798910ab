import type { AgentStatus, CallRecord } from './agent-state';
import type { RiskClass } from './risk-class';

/**
 * One line of a task's trace (JSONL). Every record passes through redaction before it reaches the sink, so a trace
 * can be exported without leaking what the model never saw.
 */
export type TraceRecord =
  | { type: 'task'; at: number; taskId: string; task: string; mode: string; provider: string; model: string; resumed: boolean }
  | { type: 'observation'; at: number; step: number; url: string; title: string; chars: number; hash: string; durationMs: number }
  | { type: 'notice'; at: number; step: number; message: string }
  | { type: 'prompt'; at: number; step: number; chars: number; messages: number; maskedObservations: number; trimmed: boolean }
  | {
      type: 'reply';
      at: number;
      step: number;
      durationMs: number;
      text: string;
      toolCalls: { id: string; name: string; arguments: string }[];
      inputTokens: number | null;
      outputTokens: number | null;
      /** Of the input tokens, those read from the provider's prompt cache, and those written to it. */
      cachedInputTokens: number | null;
      cacheWriteTokens: number | null;
      costUsd: number | null;
      model: string;
    }
  | {
      type: 'tool';
      at: number;
      step: number;
      callId: string;
      name: string;
      arguments: string;
      classes: RiskClass[];
      decision: string | null;
      reason: string | null;
      status: string;
      ok: boolean | null;
      content: string | null;
      changed: boolean | null;
      durationMs: number | null;
      /**
       * Where the call's time went, in ms, by part (the gate's look at the page, the action in the page, the settle
       * after it...): present when the environment measured them; `npm run bench:agent` prints them.
       */
      phases?: Record<string, number>;
    }
  | { type: 'error'; at: number; step: number; code: string; message: string }
  | {
      type: 'memory';
      at: number;
      step: number;
      /** Steps up to this index are now in the working memory's summary. */
      throughStep: number;
      summarized: number;
      historyChars: number;
      summaryChars: number;
      by: 'model' | 'list';
      durationMs: number;
    }
  | {
      type: 'end';
      at: number;
      status: AgentStatus;
      reason: string | null;
      steps: number;
      inputTokens: number;
      outputTokens: number;
      cachedInputTokens: number;
      costUsd: number | null;
      durationMs: number;
    };

export type TraceSink = (record: TraceRecord) => void;

/** One trace record as a JSONL line, for the export the user downloads. */
export function traceLine(record: TraceRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The trace record of one call, whatever became of it. */
export function toolRecord(call: CallRecord, step: number, durationMs: number | null, at: number, phases?: Record<string, number>): TraceRecord {
  return {
    type: 'tool',
    at,
    step,
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    classes: call.classes,
    decision: call.decision ?? null,
    reason: call.decisionReason ?? null,
    status: call.status,
    ok: call.result?.ok ?? null,
    content: call.result?.content ?? null,
    changed: call.result?.changed ?? null,
    durationMs,
    ...(phases && Object.keys(phases).length > 0 ? { phases } : {}),
  };
}

import type { CallRecord } from '../../shared/agent/agent-state';
import { STOPPED_BY_USER } from '../../shared/agent/approval';
import { intentOf } from '../../shared/agent/step-text';

/** How a step line is marked in the list: by what happened, never by what was asked for. */
export type StepState = 'running' | 'paused' | 'waiting' | 'ok' | 'refused' | 'stopped' | 'blocked' | 'failed' | 'gave_up' | 'skipped' | 'unknown' | 'note';

/**
 * The word a step's line starts with when it did not simply happen: the text says what happened, so the mark's colour
 * is never the only sign. A done step (`ok`) and a note need no word: their text already says it.
 */
export const VERDICTS: Record<StepState, string> = {
  ok: 'Done',
  refused: 'Refused by you',
  stopped: 'Stopped by you',
  blocked: 'Blocked by a rule',
  failed: 'Failed',
  gave_up: 'Gave up',
  skipped: 'Not run',
  unknown: 'Interrupted',
  running: 'In progress',
  waiting: 'Waiting for you',
  paused: 'Paused',
  note: 'Note',
};

/** Distinct marks per state, so two states never look alike even without colour. */
export const MARKS: Record<StepState, string> = {
  running: '…',
  paused: '‖',
  waiting: '?',
  ok: '✓',
  refused: '⊗',
  stopped: '■',
  failed: '✗',
  blocked: '⊘',
  gave_up: '⚑',
  skipped: '–',
  unknown: '!',
  note: 'i',
};

const UNTRUSTED_TAG = /<\/?\s*untrusted[\u200b]?_[a-z]+[^>]*>/gi;
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi;
/** An element number before the element's role and name says nothing to a person; a lone one means "an element". */
const REF_BEFORE_NAME = /\s*\[\d+\](?=\s+[a-z])/gi;
const LONE_REF = /\[\d+\]/g;

/**
 * Text the model reads turned into text a person reads: the element numbers written for the model ("[8]"), the tags
 * that mark untrusted content and any raw HTML are dropped (they stay in the step's details).
 */
export function plainText(text: string): string {
  return text.replace(UNTRUSTED_TAG, ' ').replace(HTML_TAG, ' ').replace(REF_BEFORE_NAME, '').replace(LONE_REF, 'an element').replace(/[ \t]+/g, ' ').replace(/ +\n/g, '\n').trim();
}

/** The first non-empty line of plain text, cut to fit one line of the narrow panel. */
export function firstPlainLine(text: string, max = 160): string {
  const line = (plainText(text).split('\n').find((candidate) => candidate.trim() !== '') ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What happened to a call, as the user should read it. */
export function callState(call: CallRecord): StepState {
  switch (call.status) {
    case 'proposed':
    case 'started':
      return 'running';
    case 'awaiting_approval':
      return 'waiting';
    case 'finished':
      if (call.result?.ok === false) return 'failed';
      return call.name === 'done' && /^Gave up\b/.test(call.stepText ?? '') ? 'gave_up' : 'ok';
    case 'denied':
      // The gate asked and the user said no; anything else that denies is a rule (the safety policy, a blocked site).
      if (call.decision === 'ask') return call.result?.content === STOPPED_BY_USER ? 'stopped' : 'refused';
      return 'blocked';
    case 'skipped':
      return 'skipped';
    case 'interrupted':
      return 'unknown';
  }
}

/**
 * A step's line: what was done in the past tense when it happened; otherwise the verdict and what the model wanted to
 * do ("Refused by you: Click button "Pay""), so nothing that did not happen reads as done.
 */
export function stepWording(call: CallRecord, state: StepState): string {
  const past = plainText(call.stepText ?? call.name);
  if (state === 'ok' || state === 'gave_up') return past;
  const intent = intentOf(past);
  if (state === 'running' || state === 'waiting' || state === 'paused') return intent;
  return `${VERDICTS[state]}: ${intent}`;
}

/** The rule's reason for a blocked step, without the words written to steer the model. */
function ruleReason(call: CallRecord): string {
  const reason = call.decisionReason ?? call.result?.content.replace(/^Blocked by Deputy's safety policy:\s*/, '').replace(/\s*Do not try to reach the same result another way\.?.*$/s, '') ?? '';
  return firstPlainLine(reason) || 'not allowed by your safety settings';
}

/** One line under a step: what verification found, why it failed, or why it did not happen. */
export function stepCheck(call: CallRecord, state: StepState): string {
  const result = call.result;
  switch (state) {
    case 'paused':
      return 'paused: it runs when you resume';
    case 'running':
      return call.name === 'ask_user' ? 'waiting for your answer' : 'in progress…';
    case 'waiting':
      return 'waiting for your approval';
    case 'stopped':
      return 'you stopped the task while it waited for your approval, so it was not done';
    case 'refused':
      return call.name === 'update_plan' && result?.content.includes('wrote their own') ? 'you wrote your own steps instead' : 'you rejected it, so it was not done';
    case 'blocked':
      return `not done: ${ruleReason(call)}`;
    case 'unknown':
      return 'interrupted: it may or may not have happened, so it was not repeated';
    case 'skipped':
      return 'not done: the task ended first';
    case 'failed':
      return firstPlainLine(result?.content ?? '') || 'it did not work';
    case 'note':
      return '';
    case 'gave_up':
    case 'ok':
      break;
  }
  if (!result) return '';
  // The plan shows itself above, and the outcome below: their results would only repeat them.
  if (call.name === 'update_plan' || call.name === 'done') return '';
  if (result.changed === true) return `verified: ${firstPlainLine(result.evidence?.[0] ?? 'the page changed', 120) || 'the page changed'}`;
  if (result.changed === false) return 'no visible change on the page';
  const line = firstPlainLine(result.content);
  return line === plainText(call.stepText ?? '') ? '' : line;
}

/**
 * Everything about a step the model worked with and a person rarely needs: the tool and its arguments, the step as
 * the model saw it (with element numbers), the full result (with its untrusted-content tags) and the rule's words.
 */
export function stepDetails(call: CallRecord): string {
  const lines = [`Tool: ${call.name}`, `Arguments: ${call.arguments}`];
  if (call.stepText) lines.push(`As the model saw it: ${call.stepText}`);
  if (call.classes.length > 0) lines.push(`Risk: ${call.classes.join(', ')}`);
  if (call.decision) lines.push(`Decision: ${call.decision}${call.decisionReason ? ` (${call.decisionReason})` : ''}`);
  if (call.result) lines.push(`Result${call.result.ok ? '' : ' (error)'}:`, call.result.content);
  if (call.result?.evidence?.length) lines.push('Evidence:', ...call.result.evidence.map((line) => `- ${line}`));
  return lines.join('\n');
}

import { z } from 'zod';
import { Plan } from '../agent/plan';

/**
 * The side panel's view of a desktop task: the background folds the host's `desktop.task` events into one bounded
 * record, keeps it in chrome.storage.session (so a panel opened mid-run shows the run), and sends it whole to every
 * open panel after each change. Its bounds keep every message far under the browser's 1 MB cap.
 */
export const DESKTOP_RUN_MAX_STEPS = 100;
export const DESKTOP_RUN_MAX_SHOTS = 4;
export const DESKTOP_THUMBNAIL_MAX_BASE64 = 60_000;

export const DesktopThumbnail = z.object({
  mediaType: z.literal('image/jpeg'),
  base64: z.string().max(DESKTOP_THUMBNAIL_MAX_BASE64),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type DesktopThumbnail = z.infer<typeof DesktopThumbnail>;

/** One action of the run as the panel lists it. Arguments and results are cut to a few hundred characters. */
export const DesktopRunStep = z.object({
  step: z.number().int().nonnegative(),
  callId: z.string(),
  action: z.string(),
  arguments: z.string(),
  status: z.string(),
  ok: z.boolean().nullable(),
  result: z.string().nullable(),
  at: z.number(),
});
export type DesktopRunStep = z.infer<typeof DesktopRunStep>;

export const DesktopRunStatus = z.enum(['running', 'completed', 'failed', 'stopped']);
export type DesktopRunStatus = z.infer<typeof DesktopRunStatus>;

export const DesktopRunRecord = z.object({
  runId: z.string(),
  runDir: z.string(),
  task: z.string(),
  mode: z.enum(['ask', 'act']),
  status: DesktopRunStatus,
  startedAt: z.number(),
  updatedAt: z.number(),
  /** The latest actions, oldest first; `droppedSteps` says how many earlier ones were let go. */
  steps: z.array(DesktopRunStep).max(DESKTOP_RUN_MAX_STEPS),
  droppedSteps: z.number().int().nonnegative(),
  /** Small images of the latest screenshots, with the full-size PNG's path in the run folder. */
  shots: z.array(z.object({ step: z.number().int().nonnegative(), pngPath: z.string(), thumbnail: DesktopThumbnail })).max(DESKTOP_RUN_MAX_SHOTS),
  /** The model's latest plan, shown from the moment it is proposed: in ask mode the user approves it before any action. */
  plan: Plan.nullable().default(null),
  approval: z.object({ id: z.string(), intent: z.string(), reason: z.string(), classes: z.array(z.string()), askedAt: z.number() }).nullable(),
  question: z.object({ id: z.string(), text: z.string(), askedAt: z.number() }).nullable(),
  stopRequested: z.boolean(),
  /** The outcome once finished: the model's summary, or why the run ended. */
  summary: z.string().nullable(),
  stoppedByHotkey: z.boolean(),
});
export type DesktopRunRecord = z.infer<typeof DesktopRunRecord>;

/** The panel's own desktop methods (besides the host methods the background forwards as they are). */
export const desktopUiMethods = {
  /** The latest desktop run (running or finished), or null when none was started in this browser session. */
  'desktop.current': { params: z.object({}), result: DesktopRunRecord.nullable() },
};

export const desktopUiEvents = {
  'desktop.updated': DesktopRunRecord,
};

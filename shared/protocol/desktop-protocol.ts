import { z } from 'zod';
import { DesktopThumbnail } from './desktop-ui-protocol';

/**
 * Desktop control over the host channel: what the host reports about the screens, the screenshots it sends, and the
 * actions it performs. Coordinates in actions are always in the pixels of the screenshot the model saw (`frame`); the
 * host maps them to the screen's logical pixels, so a downscaled image or a scaled (HiDPI) display clicks the right
 * spot.
 */

/** One monitor, in the screen's logical pixels (the units mouse positions use). */
export const DesktopDisplay = z.object({
  id: z.string().min(1).max(64),
  name: z.string().max(128),
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Physical pixels per logical pixel: 2 on a Retina or 200% display, 1 on a plain X server. */
  scaleFactor: z.number().positive(),
  primary: z.boolean(),
});
export type DesktopDisplay = z.infer<typeof DesktopDisplay>;

export const DesktopStatus = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    platform: z.string(),
    displays: z.array(DesktopDisplay).min(1),
    /** The chord that stops a running desktop task at once, e.g. "Ctrl+Alt+Shift+Q". */
    stopHotkey: z.string(),
    /** False when the hotkey listener could not start; the side panel's stop button still works. */
    stopHotkeyActive: z.boolean(),
  }),
  z.object({
    available: z.literal(false),
    /** Why desktop control cannot work here, in one sentence a user can act on. */
    reason: z.string(),
  }),
]);
export type DesktopStatus = z.infer<typeof DesktopStatus>;

export const DesktopScreenshotParams = z.object({
  /** Which display to capture; the primary one when absent. */
  displayId: z.string().min(1).max(64).optional(),
  /** Width of the image for the model, in pixels; never upscaled beyond the capture. */
  width: z.number().int().min(160).max(3840).default(1280),
  /** JPEG quality for the model's image. */
  quality: z.number().int().min(10).max(100).default(70),
  /** Where to keep the full-size PNG (a run folder's file); none is written when absent. */
  pngPath: z.string().min(1).max(4096).optional(),
  /**
   * Where the last click landed, in the pixels of the screenshot it was aimed at (`frame`): drawn as a ring on the
   * model's image and the kept PNG, so both the model and the user see where it went. The fingerprint ignores it.
   */
  marker: z
    .object({
      x: z.number().min(0).max(100_000),
      y: z.number().min(0).max(100_000),
      frame: z.object({ width: z.number().int().positive().max(100_000), height: z.number().int().positive().max(100_000) }),
    })
    .optional(),
});
export type DesktopScreenshotParams = z.input<typeof DesktopScreenshotParams>;

/** The pixel space the model's coordinates refer to: a screenshot of `displayId` that was `width` x `height`. */
export const DesktopFrame = z.object({
  displayId: z.string().min(1).max(64),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type DesktopFrame = z.infer<typeof DesktopFrame>;

export const DesktopScreenshotResult = z.object({
  display: DesktopDisplay,
  frame: DesktopFrame,
  image: z.object({ mediaType: z.literal('image/jpeg'), base64: z.string(), bytes: z.number().int() }),
  /** Size of the capture in physical pixels, before downscaling. */
  captured: z.object({ width: z.number().int(), height: z.number().int() }),
  /** Changes when the screen visibly changes: the agent tells a step that changed nothing from one that did. */
  fingerprint: z.string(),
  pngPath: z.string().optional(),
  timings: z.object({ captureMs: z.number(), encodeMs: z.number() }),
});
export type DesktopScreenshotResult = z.infer<typeof DesktopScreenshotResult>;

const coordinate = z.number().finite().describe('In pixels of the latest screenshot, from its top-left corner.');
const Point = z.object({ x: coordinate, y: coordinate });

/** Every action the host performs on the desktop, as data. */
export const DesktopAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('move'), ...Point.shape }),
  z.object({ kind: z.literal('click'), ...Point.shape }),
  z.object({ kind: z.literal('double_click'), ...Point.shape }),
  z.object({ kind: z.literal('right_click'), ...Point.shape }),
  z.object({ kind: z.literal('drag'), from: Point, to: Point }),
  z.object({
    kind: z.literal('scroll'),
    ...Point.shape,
    direction: z.enum(['up', 'down', 'left', 'right']),
    amount: z.number().int().min(1).max(50).default(5),
  }),
  z.object({ kind: z.literal('type'), text: z.string().min(1).max(20_000) }),
  /** A chord such as "ctrl+shift+t", or a single key such as "enter". */
  z.object({ kind: z.literal('key'), keys: z.string().min(1).max(100) }),
  z.object({ kind: z.literal('wait'), seconds: z.number().min(0).max(60) }),
]);
export type DesktopAction = z.infer<typeof DesktopAction>;
export type DesktopActionInput = z.input<typeof DesktopAction>;

export const DesktopActParams = z.object({
  action: DesktopAction,
  /** The screenshot the coordinates refer to; needed by every action that has coordinates. */
  frame: DesktopFrame.optional(),
  /** Describe the action instead of performing it. */
  dryRun: z.boolean().default(false),
  /** The user approved typing text that the redactor flags as personal data. */
  approvedSensitive: z.boolean().default(false),
});
export type DesktopActParams = z.input<typeof DesktopActParams>;

export const DesktopActResult = z.object({
  performed: z.boolean(),
  /** What was done (or, in a dry run, what would have been done), with screen coordinates. */
  description: z.string(),
  /** Where the pointer ended, in logical screen pixels, for actions that move it. */
  screenPoint: z.object({ x: z.number(), y: z.number() }).optional(),
  /** How text was entered: typed key by key, or pasted through the clipboard. */
  typedBy: z.enum(['keys', 'paste']).optional(),
  ms: z.number(),
});
export type DesktopActResult = z.infer<typeof DesktopActResult>;

/** Starts a desktop task in the host (the side panel's desktop mode). One runs at a time: there is one screen. */
export const DesktopRunParams = z.object({
  task: z.string().min(1).max(4000),
  /** The provider settings (shared/agent ProviderSettings); checked by the host, which says what is missing. */
  provider: z.unknown(),
  mode: z.enum(['ask', 'act']).default('ask'),
  dryRun: z.boolean().default(false),
  displayId: z.string().min(1).max(64).optional(),
  width: z.number().int().min(320).max(3840).default(1280),
  quality: z.number().int().min(10).max(100).default(70),
  maxSteps: z.number().int().min(1).max(500).optional(),
  /** The cost cap in dollars (the user's setting); absent: none. */
  maxCostUsd: z.number().positive().max(1000).optional(),
  /**
   * The run folder of a task that stopped at its cost cap: it goes on from there under `maxCostUsd` (the new cap, which
   * counts from here), in the same folder, instead of `task` starting afresh. Only a folder of this host's runs.
   */
  resumeRunDir: z.string().min(1).max(1000).optional(),
});
export type DesktopRunParams = z.input<typeof DesktopRunParams>;

/** The user's answer to an approval or a question a desktop task asked through a `desktop.task` event. */
export const DesktopAnswerParams = z.object({
  runId: z.string().min(1).max(128),
  id: z.string().min(1).max(128),
  approved: z.boolean().optional(),
  /** Why the user declined, or their answer to a question. */
  text: z.string().max(4000).optional(),
});

/** The desktop methods of the host channel; host-channel.ts spreads them into its declaration. */
export const desktopMethods = {
  'desktop.status': { params: z.object({ refresh: z.boolean().default(false) }), result: DesktopStatus },
  'desktop.screenshot': { params: DesktopScreenshotParams, result: DesktopScreenshotResult },
  'desktop.act': { params: DesktopActParams, result: DesktopActResult },
  'desktop.run': { params: DesktopRunParams, result: z.object({ runId: z.string(), runDir: z.string() }) },
  'desktop.answer': { params: DesktopAnswerParams, result: z.object({ accepted: z.boolean() }) },
  'desktop.stop': { params: z.object({ runId: z.string().min(1).max(128) }), result: z.object({ stopped: z.boolean() }) },
};

/** Sent when the user pressed the stop hotkey: every running desktop task stops. */
export const DesktopStoppedEvent = z.object({ hotkey: z.string(), at: z.number() });
export type DesktopStoppedEvent = z.infer<typeof DesktopStoppedEvent>;

/**
 * What a running desktop task tells the other side: each trace record as it happens, an approval or a question waiting
 * for `desktop.answer` (by `id`), and the end with its status and run folder.
 */
export const DesktopTaskEvent = z.discriminatedUnion('kind', [
  z.object({ runId: z.string(), kind: z.literal('trace'), record: z.record(z.string(), z.unknown()) }),
  z.object({
    runId: z.string(),
    kind: z.literal('approval'),
    id: z.string(),
    intent: z.string(),
    reason: z.string(),
    classes: z.array(z.string()),
  }),
  z.object({ runId: z.string(), kind: z.literal('question'), id: z.string(), question: z.string() }),
  /** A step's screenshot as a small image for the live view, with the full-size PNG's path in the run folder. */
  z.object({
    runId: z.string(),
    kind: z.literal('screenshot'),
    step: z.number().int().nonnegative(),
    pngPath: z.string(),
    thumbnail: DesktopThumbnail,
  }),
  z.object({
    runId: z.string(),
    kind: z.literal('finished'),
    status: z.string(),
    summary: z.string(),
    runDir: z.string(),
    stoppedByHotkey: z.boolean(),
  }),
]);
export type DesktopTaskEvent = z.infer<typeof DesktopTaskEvent>;

/** The desktop events of the host channel; host-channel.ts spreads them into its declaration. */
export const desktopEvents = {
  'desktop.stopped': DesktopStoppedEvent,
  'desktop.task': DesktopTaskEvent,
};

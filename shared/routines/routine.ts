import { z } from 'zod';

/**
 * How a step's element is found again on a later visit, without the `[N]` number of the snapshot it was seen in
 * (those numbers change from page load to page load). Matched by role and accessible name first, then told apart
 * from look-alikes by the frame's origin, the text near it and its place among elements of the same role and name.
 */
export const TargetIdentity = z.object({
  role: z.string(),
  name: z.string(),
  /** The origin of the frame it was in, when that was not the page's own (a payment iframe). */
  origin: z.string().optional(),
  /** The nearest text line above it in the snapshot (a heading, a product's name): what tells look-alikes apart. */
  near: z.string().optional(),
  /** Its place (0-based) among the elements with the same role and name, and how many there were. */
  nth: z.number().int().nonnegative(),
  of: z.number().int().positive(),
});
export type TargetIdentity = z.infer<typeof TargetIdentity>;

/** What a parameter holds, which decides how it is checked before a run. A secret is asked for and never stored. */
export const ParamKind = z.enum(['text', 'number', 'date', 'secret']);
export type ParamKind = z.infer<typeof ParamKind>;

export const RoutineParam = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'A parameter name is lower case letters, digits and _'),
  kind: ParamKind,
  /** The value used when the routine was recorded (never for a secret): the form's default. */
  example: z.string().max(2000).optional(),
});
export type RoutineParam = z.infer<typeof RoutineParam>;

/**
 * One step of a routine: a tool call as the model made it, with its element by identity (`target`) instead of a ref,
 * and the user's values as `{{param}}` placeholders. `text` is the step as the panel showed it.
 */
export const RoutineStep = z.object({
  tool: z.string().min(1),
  /** The call's arguments without `ref`; strings may hold `{{param}}` and secret placeholders. */
  args: z.record(z.string(), z.unknown()),
  target: TargetIdentity.nullable(),
  /** The page the step acted on (origin and path), to say where a step that fails was. */
  url: z.string(),
  text: z.string(),
});
export type RoutineStep = z.infer<typeof RoutineStep>;

export const Routine = z.object({
  format: z.literal('deputy-routine'),
  version: z.literal(1),
  name: z.string().trim().min(1).max(80),
  /** Every origin the routine acts on or goes to, listed first in the file so a reader sees where it goes. */
  sites: z.array(z.string()),
  /** The task in words, with `{{param}}` where the user's values were. */
  task: z.string(),
  startUrl: z.string(),
  params: z.array(RoutineParam),
  steps: z.array(RoutineStep).min(1, 'A routine needs at least one step'),
  createdAt: z.number(),
});
export type Routine = z.infer<typeof Routine>;

/** A routine kept by the extension: the routine, its id, and whether it came from a file that was edited by hand. */
export const StoredRoutine = z.object({
  id: z.string(),
  routine: Routine,
  /** Imported from a file whose hash no longer matched its content. */
  edited: z.boolean().default(false),
  savedAt: z.number(),
});
export type StoredRoutine = z.infer<typeof StoredRoutine>;

/** A step the model had to do again at replay, offered to the user as the routine's new step. */
export const RoutineRepair = z.object({
  step: z.number().int().nonnegative(),
  why: z.string(),
  /** The new step, or null when the model did the step without acting on an element it could name. */
  replacement: RoutineStep.nullable(),
});
export type RoutineRepair = z.infer<typeof RoutineRepair>;

/** A replay in progress or done, kept on its task record. */
export const RoutineRun = z.object({
  routineId: z.string(),
  name: z.string(),
  /** The steps with the parameters filled in (secrets stay placeholders: the vault holds their values). */
  steps: z.array(RoutineStep),
  /**
   * The address the replay opens first, as a step of its own: the task's site is the routine's from the start, so a
   * site that now sends the tab elsewhere meets the egress guard, as any step would.
   */
  open: z.string().optional(),
  opened: z.boolean().default(false),
  /** How many steps are done. */
  done: z.number().int().nonnegative().default(0),
  modelCalls: z.number().int().nonnegative().default(0),
  repairs: z.array(RoutineRepair).default([]),
});
export type RoutineRun = z.infer<typeof RoutineRun>;

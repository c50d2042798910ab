import { z } from 'zod';
import { ActionEffect } from '../agent/action-effect';
import { ActResult, ActTarget, ElementAction } from '../perception/element-action';
import { FrameSnapshot, SnapshotItem, SnapshotMode } from '../perception/frame-snapshot';

/** Page perception on the content channel: one frame's snapshot, an action by reference, a search. */
export const perceptionContentMethods = {
  snapshot: {
    params: z.object({
      mode: SnapshotMode,
      margin: z.number().int().nonnegative().max(10_000).optional(),
    }),
    result: FrameSnapshot,
  },
  act: {
    params: z.object({
      /** Absent for page-level key presses and scrolling. */
      target: ActTarget.nullable(),
      action: ElementAction,
      /** Longest wait for the page to settle after the action. */
      settleMs: z.number().int().nonnegative().max(30_000).default(3000),
      /**
       * How the action's input goes in: with a lease, as trusted input through the background's debugger; without
       * one, as synthetic events, and `reason` says why (the step reports it).
       */
      input: z.object({ lease: z.string().min(8).max(64).optional(), reason: z.string().max(500).optional() }).optional(),
    }),
    result: ActResult,
  },
  /**
   * Where the iframe whose window said `key` (a frame's name: its origin and key) shows its content, in this frame's
   * viewport (its content box), and this frame's own name: the background adds these up to place a cross-site frame.
   */
  frameBox: {
    params: z.object({ key: z.string().min(1).max(400) }),
    result: z.object({ x: z.number(), y: z.number(), ownKey: z.string().optional() }).nullable(),
  },
  /** What an action would do (the link it follows, the form it submits and where), without doing it. */
  effect: {
    params: z.object({ target: ActTarget.nullable(), action: ElementAction }),
    result: ActionEffect,
  },
  highlight: {
    params: z.object({ target: ActTarget, durationMs: z.number().int().nonnegative().max(60_000).default(1500) }),
    result: z.object({ found: z.boolean() }),
  },
  find: {
    params: z.object({
      text: z.string().min(1).max(200),
      limit: z.number().int().positive().max(200).default(30),
      /** How long the search may take; past it, it answers with what it found and `complete: false`. */
      budgetMs: z.number().int().positive().max(30_000).default(4000),
    }),
    result: z.object({
      token: z.string(),
      url: z.string(),
      items: z.array(SnapshotItem),
      total: z.number().int().nonnegative(),
      complete: z.boolean().default(true),
    }),
  },
  /** Waits until the frame's DOM stops changing (see watchSettle); says how long it took and how loaded it is. */
  settle: {
    params: z.object({
      capMs: z.number().int().nonnegative().max(30_000),
      graceMs: z.number().int().nonnegative().max(10_000).optional(),
      graceFrames: z.number().int().positive().max(10).optional(),
      quietMs: z.number().int().nonnegative().max(10_000).optional(),
      /** The addresses of the frame's requests the background saw answered: the page is looked at once it holds them. */
      answered: z.array(z.string().max(8192)).max(200).optional(),
    }),
    result: z.object({ mutations: z.number().int().nonnegative(), timedOut: z.boolean(), waitedMs: z.number(), readyState: z.string() }),
  },
};

const PageMode = z.enum(['viewport', 'page']);

/** The same, tab-wide, for the extension pages (and the end-to-end tests that drive them). */
export const perceptionUiMethods = {
  'page.snapshot': {
    params: z.object({
      tabId: z.number().int().nonnegative(),
      mode: PageMode.default('viewport'),
      maxTokens: z.number().int().positive().optional(),
    }),
    result: z.object({
      text: z.string(),
      url: z.string(),
      title: z.string(),
      elements: z.array(z.object({ ref: z.number().int(), role: z.string(), name: z.string(), frameId: z.number().int() })),
    }),
  },
  'page.highlight': {
    params: z.object({
      tabId: z.number().int().nonnegative(),
      ref: z.number().int().positive(),
      /** How long the outline stays: a glance by default, longer while an approval about the element waits. */
      durationMs: z.number().int().min(100).max(60_000).optional(),
    }),
    result: z.object({ found: z.boolean() }),
  },
  'page.act': {
    params: z.object({
      tabId: z.number().int().nonnegative(),
      action: z.record(z.string(), z.unknown()),
      /** Longest wait for the page to settle; 0 reports at once. */
      settleMs: z.number().int().nonnegative().max(30_000).optional(),
    }),
    result: z.object({ ok: z.boolean(), message: z.string(), changed: z.boolean(), evidence: z.array(z.string()) }),
  },
};

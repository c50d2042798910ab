import { z } from 'zod';
import { chatUiMethods } from './chat-protocol';
import { defineChannel } from './channel';
import { desktopEvents, desktopMethods } from './desktop-protocol';
import { desktopUiEvents, desktopUiMethods } from './desktop-ui-protocol';
import { LoopEvent, LoopEvents, LoopMethods } from './loop-protocol';
import { Flow } from './flow';
import { formMethods } from './form-protocol';
import { shellMethods } from './shell-protocol';
import { shellUiEvents, shellUiMethods } from './shell-ui-protocol';
import { routineUiMethods } from './routine-protocol';
import { taskUiEvents, taskUiMethods } from './task-protocol';
import { perceptionUiMethods } from './perception-protocol';
import { mcpUiEvents, mcpUiMethods } from './mcp-ui-protocol';

/**
 * `starting`: the host process is running (the port is open) but has not answered hello yet: slow, not broken.
 * `disconnected`: the host exited or never answered; the extension tries again with backoff.
 */
export const HostState = z.enum(['connecting', 'starting', 'connected', 'not_installed', 'incompatible', 'disconnected']);
export type HostState = z.infer<typeof HostState>;

export const HostStatus = z.object({
  state: HostState,
  hostVersion: z.string().optional(),
  protocolVersion: z.number().int().optional(),
  /** A sentence for the user: what is wrong and what to run. */
  message: z.string().optional(),
  /** When disconnected, how long until the next attempt. */
  retryInMs: z.number().int().nonnegative().optional(),
  /** While starting: what the extension waits for, in words. */
  waitingFor: z.string().optional(),
  /** While starting: when the wait began (epoch ms). */
  since: z.number().optional(),
  updatedAt: z.number(),
});
export type HostStatus = z.infer<typeof HostStatus>;

export { Flow };

/** What the side panel should show for a tab when it opens: set by the context menu. */
export const Launch = z.object({
  tabId: z.number().int().nonnegative(),
  flow: Flow,
  frameId: z.number().int().nonnegative().optional(),
  pageUrl: z.string().optional(),
  selectionText: z.string().max(2000).optional(),
  /** A past task to open in the History view (chosen among the popup's recent tasks). */
  taskId: z.string().min(1).max(100).optional(),
  at: z.number(),
});
export type Launch = z.infer<typeof Launch>;

const TabRef = z.object({ tabId: z.number().int().nonnegative() });

/**
 * Host methods the side panel calls as they are (the background only forwards them): the fix loop and desktop tasks
 * run in the native host. Low-level desktop input (`desktop.act`, `desktop.screenshot`) stays with the agent.
 */
export const hostPassthroughMethods = {
  ...LoopMethods,
  'desktop.status': desktopMethods['desktop.status'],
  'desktop.run': desktopMethods['desktop.run'],
  'desktop.answer': desktopMethods['desktop.answer'],
  'desktop.stop': desktopMethods['desktop.stop'],
  'shell.run': shellMethods['shell.run'],
  'shell.resume': shellMethods['shell.resume'],
  'shell.answer': shellMethods['shell.answer'],
  'shell.stop': shellMethods['shell.stop'],
  'shell.kill': shellMethods['shell.kill'],
  'shell.output': shellMethods['shell.output'],
  'shell.search': shellMethods['shell.search'],
  'shell.sessions': shellMethods['shell.sessions'],
} as const;
export type HostPassthroughMethod = keyof typeof hostPassthroughMethods;

/** Host events the background passes on to every open panel and popup. */
export const hostPassthroughEvents = { ...LoopEvents, ...desktopEvents } as const;
export type HostPassthroughEvent = keyof typeof hostPassthroughEvents;

/** Side panel / popup <-> background, over a runtime port named "ui". */
export const UiChannel = defineChannel(
  'ui',
  {
    'host.status': { params: z.object({}), result: HostStatus },
    'host.reconnect': { params: z.object({}), result: HostStatus },
    'host.ping': {
      params: z.object({ echoBytes: z.number().int().nonnegative().max(16 * 1024 * 1024).optional() }),
      result: z.object({ roundTripMs: z.number(), hostVersion: z.string(), echoedBytes: z.number().int() }),
    },
    'content.ping': {
      params: TabRef,
      result: z.object({
        frames: z.array(z.object({ frameId: z.number().int(), url: z.string(), top: z.boolean(), title: z.string() })),
      }),
    },
    'launch.get': { params: TabRef, result: Launch.nullable() },
    'launch.clear': { params: TabRef, result: z.object({}) },
    /** Leaves a past task for the side panel on this tab to open (the popup asks, then opens the panel). */
    'launch.openTask': { params: TabRef.extend({ taskId: z.string().min(1).max(100) }), result: z.object({}) },
    ...chatUiMethods,
    ...perceptionUiMethods,
    ...taskUiMethods,
    ...routineUiMethods,
    ...hostPassthroughMethods,
    /** The loop events the background kept for a loop (bounded), so a panel opened mid-loop can draw its iterations. */
    'loop.log': { params: z.object({ loopId: z.string().min(1) }), result: z.object({ events: z.array(LoopEvent) }) },
    ...desktopUiMethods,
    ...shellUiMethods,
    ...mcpUiMethods,
    /** A web form filled by Deputy, for `deputy loop` in a Chromium it started (the host asks the same over native messaging). */
    ...formMethods,
  },
  {
    'host.status': HostStatus,
    launch: Launch,
    ...taskUiEvents,
    ...hostPassthroughEvents,
    ...desktopUiEvents,
    ...shellUiEvents,
    ...mcpUiEvents,
  },
);
export type UiChannel = typeof UiChannel;
export type UiMethods = UiChannel['methods'];

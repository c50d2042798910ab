import { z } from 'zod';
import { defineChannel } from './channel';
import { HelloMethod } from './hello-protocol';
import { desktopEvents, desktopMethods } from './desktop-protocol';
import { LoopEvents, LoopMethods } from './loop-protocol';
import { mcpHostEvents, mcpHostMethods } from './mcp-protocol';
import { shellEvents, shellMethods } from './shell-protocol';
import { HostSchedule } from '../routines/host-schedules';

/** The background (or the CLI) <-> native host channel. */
export const HostChannel = defineChannel(
  'host',
  {
    hello: HelloMethod,
    ping: {
      params: z.object({
        /** Echoed back unchanged: a diagnostic for round trips of a given size. */
        echo: z
          .string()
          .max(60 * 1024 * 1024)
          .optional(),
      }),
      result: z.object({ time: z.number(), echo: z.string().optional() }),
    },
    ...desktopMethods,
    ...LoopMethods,
    ...shellMethods,
    ...mcpHostMethods,
    /**
     * The extension's schedules, without their values, kept by the host so `deputy schedules run-due` knows what is due.
     * `at` is when the extension read them: a copy older than the one kept (a sync that crossed run-due's own write)
     * is dropped, so the file never goes back in time.
     */
    'schedules.sync': {
      params: z.object({ schedules: z.array(HostSchedule).max(1000), at: z.number().optional() }),
      result: z.object({ file: z.string(), kept: z.boolean() }),
    },
  },
  {
    notice: z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string().max(2000) }),
    ...desktopEvents,
    ...LoopEvents,
    ...shellEvents,
    ...mcpHostEvents,
  },
);
export type HostChannel = typeof HostChannel;
export type HostMethods = HostChannel['methods'];

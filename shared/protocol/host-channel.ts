import { z } from 'zod';
import { defineChannel } from './channel';
import { desktopEvents, desktopMethods } from './desktop-protocol';
import { LoopEvents, LoopMethods } from './loop-protocol';
import { shellEvents, shellMethods } from './shell-protocol';

/** The background (or the CLI) <-> native host channel. */
export const HostChannel = defineChannel(
  'host',
  {
    hello: {
      params: z.object({
        protocolVersion: z.number().int().positive(),
        client: z.enum(['extension', 'cli', 'test']),
        clientVersion: z.string().max(64),
      }),
      result: z.object({
        hostVersion: z.string(),
        protocolVersion: z.number().int().positive(),
        compatible: z.boolean(),
        platform: z.string(),
        pid: z.number().int(),
        capabilities: z.array(z.string()),
      }),
    },
    ping: {
      params: z.object({
        /** Echoed back unchanged: a diagnostic for round trips of a given size. */
        echo: z.string().max(60 * 1024 * 1024).optional(),
      }),
      result: z.object({ time: z.number(), echo: z.string().optional() }),
    },
    ...desktopMethods,
    ...LoopMethods,
    ...shellMethods,
  },
  {
    notice: z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string().max(2000) }),
    ...desktopEvents,
    ...LoopEvents,
    ...shellEvents,
  },
);
export type HostChannel = typeof HostChannel;
export type HostMethods = HostChannel['methods'];

import { z } from 'zod';

/**
 * The host channel's first method, in a module of its own: the native host answers it before the rest of its protocol
 * (desktop, fix loop, shell, MCP) is built, so a browser learns at once that the host is alive.
 */
export const HelloMethod = {
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
};
export type HelloParams = z.infer<typeof HelloMethod.params>;
export type HelloResult = z.infer<typeof HelloMethod.result>;

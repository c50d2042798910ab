import { z } from 'zod';

/** What the side panel is doing for a tab: a web task, or a support chat. */
export const Flow = z.enum(['task', 'chat']);
export type Flow = z.infer<typeof Flow>;

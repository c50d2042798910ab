import { z } from 'zod';
import { chatContentMethods } from './chat-protocol';
import { defineChannel } from './channel';
import { perceptionContentMethods } from './perception-protocol';

/**
 * Background -> content script requests, one frame at a time. Content scripts run in untrusted pages: nothing on this
 * channel lets them reach the host, the desktop or the shell.
 */
export const ContentChannel = defineChannel(
  'content',
  {
    ping: {
      params: z.object({}),
      result: z.object({
        url: z.string(),
        top: z.boolean(),
        readyState: z.string(),
        title: z.string(),
      }),
    },
    ...perceptionContentMethods,
    ...chatContentMethods,
  },
  {},
);
export type ContentChannel = typeof ContentChannel;
export type ContentMethods = ContentChannel['methods'];

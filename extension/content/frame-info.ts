import type { ContentMethods, ResultOf } from '../../shared/protocol';

/** What a frame says about itself when pinged. */
export function frameInfo(win: Window): ResultOf<ContentMethods, 'ping'> {
  return {
    url: win.location.href,
    top: win === win.top,
    readyState: win.document.readyState,
    title: win.document.title,
  };
}

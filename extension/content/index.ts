import { onBackgroundRequest } from '../platform/content-bridge';
import { createContentServer } from './content-server';
import { frameInfo } from './frame-info';

// Entry of the content script, which runs in every frame of every page: it only wires.
const serve = createContentServer({
  ping: () => Promise.resolve(frameInfo(window)),
});
onBackgroundRequest((message) => serve(message));

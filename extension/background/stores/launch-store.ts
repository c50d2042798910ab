import { Launch } from '../../../shared/protocol';
import type { Store } from '../../platform/storage';

/**
 * What the side panel should open to, per tab (e.g. the chat flow after "Automate this chat"). Kept in session storage
 * so it survives the service worker stopping between the click and the panel loading.
 */
export class LaunchStore {
  constructor(private readonly store: Store) {}

  get(tabId: number): Promise<Launch | undefined> {
    return this.store.get(key(tabId), Launch);
  }

  set(launch: Launch): Promise<void> {
    return this.store.set(key(launch.tabId), launch);
  }

  clear(tabId: number): Promise<void> {
    return this.store.remove(key(tabId));
  }
}

function key(tabId: number): string {
  return `launch:${tabId}`;
}

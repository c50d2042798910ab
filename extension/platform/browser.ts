import browser from 'webextension-polyfill';

/**
 * The promise-based WebExtension API (webextension-polyfill) for the APIs browsers share: storage, tabs, windows,
 * runtime, context menus, notifications. Chrome-only APIs (side panel, action badge per tab, debugger,
 * declarativeNetRequest, scripting's MV3 options, webRequest's types) stay on `chrome.*` with chrome-types.
 */
export { browser };
export type { Runtime, Tabs } from 'webextension-polyfill';

import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };
import { EXTENSION_PUBLIC_KEY, PRODUCT_NAME } from './shared/constants.ts';

// Runs in every frame, including about:blank, srcdoc and data: frames (match_origin_as_fallback). It is declared apart
// because crxjs's manifest type predates match_origin_as_fallback; the key is passed through to the manifest as is.
// It starts with the document, not when it is idle: a page that is still loading (a slow server, HTML that streams
// for half a minute) can then be read and acted on as far as it has come, instead of not answering at all.
const everyFrame = {
  matches: ['<all_urls>'],
  js: ['extension/content/index.ts'],
  all_frames: true,
  match_about_blank: true,
  match_origin_as_fallback: true,
  run_at: 'document_start' as const,
};

export default defineManifest({
  manifest_version: 3,
  name: PRODUCT_NAME,
  description: 'A personal agent that acts for you in the browser and on the desktop, inside limits you set.',
  version: pkg.version,
  // Pins the extension id so the native host's allowed_origins can name it (see shared/constants.ts).
  key: EXTENSION_PUBLIC_KEY,
  // 123: the panel's colours use CSS light-dark(), which follows the page's color-scheme (system or Settings' theme).
  minimum_chrome_version: '123',
  icons: { 16: 'extension/assets/icon-16.png', 48: 'extension/assets/icon-48.png', 128: 'extension/assets/icon-128.png' },
  action: { default_title: 'Deputy', default_icon: { 16: 'extension/assets/icon-16.png', 48: 'extension/assets/icon-48.png' } },
  background: { service_worker: 'extension/background/index.ts', type: 'module' },
  side_panel: { default_path: 'extension/sidepanel/index.html' },
  // The toolbar button opens the side panel (setPanelBehavior), so the action's shortcut opens it from the keyboard;
  // where there is no side panel the same shortcut opens the popup. Users can change it at chrome://extensions/shortcuts.
  commands: { _execute_action: { suggested_key: { default: 'Alt+Shift+D' }, description: 'Open the Deputy side panel' } },
  content_scripts: [everyFrame],
  // webNavigation says why a page failed to load; webRequest (observing only) lets an action wait for the answers it
  // asked for and tells what a held request would have sent; declarativeNetRequest is the egress guard (session rules
  // on the task's tabs, enforced by the browser); unlimitedStorage keeps task history and its screenshots from hitting
  // the 10 MB quota.
  permissions: [
    'sidePanel',
    'contextMenus',
    'storage',
    'unlimitedStorage',
    'nativeMessaging',
    'scripting',
    'tabs',
    'activeTab',
    'notifications',
    'webNavigation',
    'webRequest',
    'debugger',
    'downloads',
    'declarativeNetRequest',
    'alarms',
  ],
  host_permissions: ['<all_urls>'],
  web_accessible_resources: [],
});

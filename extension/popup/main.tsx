import { render } from 'preact';
import '../ui/theme.css';
import { connectToBackground } from '../platform/runtime';
import { BackgroundClient } from '../ui/background-client';
import { tabIdFromLocation } from '../ui/use-target-tab';
import { PopupApp } from './popup-app';

const client = new BackgroundClient({ connect: () => connectToBackground('ui'), setTimer: (fn, ms) => setTimeout(fn, ms) });
client.start();
const root = document.getElementById('root');
// `?tab=` pins the tab, as for the panel page: the popup page opened in a tab of its own acts on that tab.
if (root) render(<PopupApp client={client} fixedTabId={tabIdFromLocation(location.search)} />, root);

import { render } from 'preact';
import '../ui/theme.css';
import { connectToBackground } from '../platform/runtime';
import { BackgroundClient } from '../ui/background-client';
import { tabIdFromLocation } from '../ui/use-target-tab';
import { SidePanelApp } from './side-panel-app';

const client = new BackgroundClient({ connect: () => connectToBackground('ui'), setTimer: (fn, ms) => setTimeout(fn, ms) });
client.start();
const root = document.getElementById('root');
if (root) render(<SidePanelApp client={client} fixedTabId={tabIdFromLocation(location.search)} openTaskId={new URLSearchParams(location.search).get('task') ?? undefined} />, root);

import type { HostStatus } from '../../shared/protocol';
import type { BackgroundClient } from '../ui/background-client';
import { panelId, tabId, ViewTabs } from '../ui/view-tabs';
import { DesktopView } from './desktop-view';
import { LoopView } from './loop-view';
import { ShellView } from './shell-view';

export type DevTool = 'loop' | 'desktop' | 'shell';

const TOOLS: { view: DevTool; label: string }[] = [
  { view: 'loop', label: 'Fix loop' },
  { view: 'desktop', label: 'Desktop' },
  { view: 'shell', label: 'Shell' },
];

/** What each tool does and what to know before using it, said before its controls. */
const INTRODUCTIONS: Record<DevTool, string> = {
  loop: "Keeps running your project's check (tests, or an output document compared to a template), asks a coding CLI (Claude Code by default) to fix what fails, and repeats until the check passes.",
  desktop: "Works on this computer's screen with the mouse and keyboard, from screenshots, for tasks outside the browser. In Ask first mode every action waits for you.",
  shell: 'Runs commands on this computer or over SSH, with an approval mode per command, background processes, and a searchable log of the session.',
};

/**
 * The tools for developers and power users, in one place behind the main views: the fix loop, desktop control and the
 * shell, each with an introduction. They run in the native host, whose status each shows.
 */
export function DevToolsView(props: { client: BackgroundClient; hostStatus: HostStatus | undefined; tool: DevTool; onTool: (tool: DevTool) => void }) {
  const { client, tool } = props;
  return (
    <section class="flow dev-tools" data-testid="dev-tools" aria-labelledby="dev-tools-title">
      <h2 id="dev-tools-title" class="section-title">
        Developer tools
      </h2>
      <ViewTabs tabs={TOOLS} selected={tool} onSelect={props.onTool} label="Developer tools" />
      <div class="view" role="tabpanel" id={panelId(tool)} aria-labelledby={tabId(tool)}>
        <p class="dev-tools__intro" data-testid="dev-tool-intro">
          {INTRODUCTIONS[tool]}
        </p>
        {tool === 'loop' ? (
          <p class="dev-tools__warning" data-testid="loop-pushes-warning">
            <strong>It commits and pushes.</strong> Each fix that passes validation is committed and pushed to the branch you name, and the loop waits for its deploy. Use a branch you are happy to have pushed to.
          </p>
        ) : null}
        {tool === 'loop' ? <LoopView client={client} hostStatus={props.hostStatus} /> : tool === 'desktop' ? <DesktopView client={client} hostStatus={props.hostStatus} /> : <ShellView client={client} hostStatus={props.hostStatus} />}
      </div>
    </section>
  );
}

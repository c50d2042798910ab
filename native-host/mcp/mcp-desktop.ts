import type { CallRecord } from '../../shared/agent/agent-state';
import type { Approver } from '../../shared/agent/approval';
import { decide } from '../../shared/agent/policy-gate';
import { createRedactor } from '../../shared/agent/redactor';
import { createSecretVault, placeholderNames, type SecretVault } from '../../shared/agent/secret-vault';
import type { ToolGate } from '../../shared/agent/tool-gate';
import { runSingleCall } from '../../shared/agent/single-call';
import { observationRecord } from '../../shared/agent/step-record';
import { AppError } from '../../shared/errors';
import type { DesktopFrame, McpCallResult } from '../../shared/protocol';
import type { DesktopAgentEnvironment, DesktopControl } from '../desktop/agent/desktop-environment';
import { desktopTools } from '../desktop/agent/desktop-tools';
import type { Revealer } from './mcp-approvals';
import { MCP_DESKTOP_TOOLS } from './mcp-tool-list';

export interface McpDesktopCallOptions {
  mode: 'ask' | 'act';
  approve: Approver;
  /** Asks the user to release the values behind placeholders the agent types (the extension holds them). */
  reveal: Revealer;
  /** The agent as it named itself, for the approval card. */
  clientName: string;
  signal?: AbortSignal;
}

export interface McpDesktop {
  screenshot(): Promise<McpCallResult>;
  call(name: string, args: Record<string, unknown>, callId: string, options: McpDesktopCallOptions): Promise<CallRecord>;
}

/**
 * The vault for one desktop_type with placeholders: it knows their names (so the step reads as using personal data)
 * and resolves them only to the values the user released for this call; everything else is the desktop's own vault.
 */
function releasedVault(base: SecretVault, names: string[], released: Map<string, string>): SecretVault {
  return {
    names: () => [...new Set([...base.names(), ...names])],
    values: () => [...base.values(), ...[...released].map(([name, value]) => ({ name, value }))].sort((a, b) => b.value.length - a.value.length),
    remember: (kind, value) => base.remember(kind, value),
    resolve: (text) => base.resolve(createSecretVault({ entries: Object.fromEntries(released) }).resolve(text)),
    placeholdersIn: (text) => placeholderNames(text).filter((name) => names.includes(name) || base.names().includes(name)),
    contents: () => base.contents(),
  };
}

/** Where typed text goes, as the approval card names it. */
const windowLabel = (title: string | undefined): string => (title ? `the window "${title.slice(0, 200)}"` : 'the focused window (its title could not be read)');


/**
 * A connected agent's desktop: screenshots of the primary display, and input in that image's pixels through the
 * desktop service (which keeps the user's blocked windows off limits), each step through the shared policy gate with
 * approvals in the side panel.
 */
export function createMcpDesktop(desktop: DesktopControl, now: () => number, windowTitle: () => Promise<string | undefined> = () => Promise.resolve(undefined)): McpDesktop {
  let frame: DesktopFrame | undefined;
  /** The window the user approved typing personal data into, while that call runs: focus moving elsewhere stops it. */
  let approvedWindow: string | undefined;
  const vault = createSecretVault();
  const redactor = createRedactor(vault);
  const tools = desktopTools().filter((tool) => MCP_DESKTOP_TOOLS.has(tool.name));
  const environment: DesktopAgentEnvironment = {
    dryRun: false,
    shot: () => undefined,
    // An MCP client takes its own screenshots (desktop_screenshot), each sent in full.
    showNextImage: () => undefined,
    observe: () => Promise.reject(new AppError('bad_request', 'Take a screenshot with desktop_screenshot.')),
    act: (action, options) => {
      const needsFrame = action.kind !== 'type' && action.kind !== 'key' && action.kind !== 'wait';
      if (needsFrame && frame === undefined) return Promise.reject(new AppError('invalid_params', 'Take a desktop_screenshot first: x and y are pixels of its image.'));
      const act = (): ReturnType<DesktopControl['act']> => desktop.act({ action, ...(frame ? { frame } : {}), approvedSensitive: options.approvedSensitive });
      if (approvedWindow === undefined || action.kind !== 'type') return act();
      const approved = approvedWindow;
      return windowTitle().then((now) => {
        if (windowLabel(now) !== approved) throw new AppError('policy_denied', `The user approved typing this into ${approved}, but the focus is now on ${windowLabel(now)}; nothing was typed. Click the right field and call desktop_type again.`);
        return act();
      });
    },
  };
  function run(name: string, args: Record<string, unknown>, callId: string, options: McpDesktopCallOptions, callVault: SecretVault, gate: ToolGate | undefined): Promise<CallRecord> {
    return runSingleCall({
      taskId: `mcp-desktop-${callId}`,
      task: 'Desktop input from a connected agent',
      startUrl: 'desktop:display',
      observation: observationRecord({ url: 'desktop:display', title: 'Desktop', text: '' }, redactor),
      call: { id: callId, name, arguments: args },
      tools,
      environment,
      policy: { mode: options.mode, approveEachStep: true, allowedSites: [], deniedSites: [], allowedFacts: {} },
      vault: callVault,
      redactor: callVault === vault ? redactor : createRedactor(callVault),
      approve: options.approve,
      ...(gate ? { gate } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      now,
    });
  }

  return {
    async screenshot() {
      const shot = await desktop.screenshot({ width: 1280, quality: 70 });
      frame = shot.frame;
      const { display } = shot;
      return {
        isError: false,
        content: [
          { type: 'text', text: `Display ${display.id} (${display.width}x${display.height}) as a ${shot.frame.width}x${shot.frame.height} image: give x and y in this image's pixels.` },
          { type: 'image', data: shot.image.base64, mimeType: shot.image.mediaType },
        ],
      };
    },
    async call(name, args, callId, options) {
      const names = name === 'type' && typeof args.text === 'string' ? placeholderNames(args.text) : [];
      let callVault = vault;
      let approve = options.approve;
      let gate: ToolGate | undefined;
      approvedWindow = undefined;
      if (names.length > 0) {
        // Typing the user's personal data into another program is an egress: the user approves each one, told which
        // values and which window, in any mode; only then does the extension give the values, and only for this call.
        const destination = windowLabel(await windowTitle());
        const released = new Map<string, string>();
        callVault = releasedVault(vault, names, released);
        const list = names.map((placeholder) => `{{${placeholder}}}`).join(', ');
        const why = `${options.clientName} types your personal data (${list}) into ${destination}`;
        gate = ({ tool }) =>
          Promise.resolve(
            tool.name === 'type'
              ? decide(
                  { mode: options.mode, approveEachStep: true, allowedSites: [], deniedSites: [], allowedFacts: {} },
                  { classes: ['act'], reasons: [why], personalData: true, leavesApprovedSites: false, mustAsk: [why] },
                )
              : undefined,
          );
        approve = async (request, signal) => {
          const answer = await options.reveal(request, names, destination, signal);
          for (const [key, value] of Object.entries(answer.values)) released.set(key, value);
          if (answer.approved) approvedWindow = destination;
          return { approved: answer.approved, ...(answer.note ? { note: answer.note } : {}) };
        };
      }
      try {
        return await run(name, args, callId, { ...options, approve }, callVault, gate);
      } finally {
        approvedWindow = undefined;
      }
    },
  };
}

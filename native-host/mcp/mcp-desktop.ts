import type { CallRecord } from '../../shared/agent/agent-state';
import type { Approver } from '../../shared/agent/approval';
import { createRedactor } from '../../shared/agent/redactor';
import { createSecretVault } from '../../shared/agent/secret-vault';
import { runSingleCall } from '../../shared/agent/single-call';
import { observationRecord } from '../../shared/agent/step-record';
import { AppError } from '../../shared/errors';
import type { DesktopFrame, McpCallResult } from '../../shared/protocol';
import type { DesktopAgentEnvironment, DesktopControl } from '../desktop/agent/desktop-environment';
import { desktopTools } from '../desktop/agent/desktop-tools';
import { MCP_DESKTOP_TOOLS } from './mcp-tool-list';

export interface McpDesktop {
  screenshot(): Promise<McpCallResult>;
  call(name: string, args: Record<string, unknown>, callId: string, options: { mode: 'ask' | 'act'; approve: Approver; signal?: AbortSignal }): Promise<CallRecord>;
}

/**
 * A connected agent's desktop: screenshots of the primary display, and input in that image's pixels through the
 * desktop service (which keeps the user's blocked windows off limits), each step through the shared policy gate with
 * approvals in the side panel.
 */
export function createMcpDesktop(desktop: DesktopControl, now: () => number): McpDesktop {
  let frame: DesktopFrame | undefined;
  const vault = createSecretVault();
  const redactor = createRedactor(vault);
  const tools = desktopTools().filter((tool) => MCP_DESKTOP_TOOLS.has(tool.name));
  const environment: DesktopAgentEnvironment = {
    dryRun: false,
    shot: () => undefined,
    observe: () => Promise.reject(new AppError('bad_request', 'Take a screenshot with desktop_screenshot.')),
    act: (action, options) => {
      const needsFrame = action.kind !== 'type' && action.kind !== 'key' && action.kind !== 'wait';
      if (needsFrame && frame === undefined) return Promise.reject(new AppError('invalid_params', 'Take a desktop_screenshot first: x and y are pixels of its image.'));
      return desktop.act({ action, ...(frame ? { frame } : {}), approvedSensitive: options.approvedSensitive });
    },
  };
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
    call(name, args, callId, options) {
      return runSingleCall({
        taskId: `mcp-desktop-${callId}`,
        task: 'Desktop input from a connected agent',
        startUrl: 'desktop:display',
        observation: observationRecord({ url: 'desktop:display', title: 'Desktop', text: '' }, redactor),
        call: { id: callId, name, arguments: args },
        tools,
        environment,
        policy: { mode: options.mode, allowedSites: [], deniedSites: [], allowedFacts: {} },
        vault,
        redactor,
        approve: options.approve,
        ...(options.signal ? { signal: options.signal } : {}),
        now,
      });
    },
  };
}

import { userInfo } from 'node:os';
import type { DesktopService } from '../desktop/desktop-service';
import { x11WindowTitle } from '../desktop/x11-window-title';
import type { ProcessRegistry } from '../host/process-registry';
import type { Logger } from '../log/logger';
import type { PathEnv } from '../paths';
import { shellPaths } from '../shell/shell-paths';
import { HOST_VERSION } from '../version';
import { bridgePaths } from './bridge-paths';
import { startBridgeServer, type RunningBridge } from './bridge-server';
import type { LateBrowserLink } from './browser-link';
import { McpBroker } from './mcp-broker';
import { mcpConfigPath } from './mcp-config';
import type { McpShell, McpShellDeps } from './mcp-shell';
import { createServerPool } from './server-pool';

/**
 * The MCP bridge of a real host: agents' shells on this machine (sessions in the shell folder, the user's shell
 * rules), the desktop service, the user's MCP servers from mcp.json, and the socket `deputy mcp` connects to. A socket
 * that cannot be opened leaves the host working without it (the log says why).
 */
export async function createMcpBridge(options: {
  link: LateBrowserLink;
  pathEnv: PathEnv;
  log: Logger;
  processes: ProcessRegistry;
  desktop?: DesktopService;
}): Promise<{ broker: McpBroker; bridge: RunningBridge | undefined }> {
  const { pathEnv, log, processes } = options;
  const now = (): number => Date.now();
  const shell = shellPaths(pathEnv);
  const broker = new McpBroker({
    link: options.link,
    hostVersion: HOST_VERSION,
    log,
    now,
    shell: (session, approve) =>
      lazyMcpShell({
        open: async () =>
          (await import('../shell/agent/shell-session')).openShellSession({
            target: { kind: 'local' },
            sessionsRoot: shell.sessionsRoot,
            prompts: { confirmHostKey: () => Promise.resolve(false) },
            home: pathEnv.home,
            localUser: userInfo().username,
            env: process.env,
            cwd: pathEnv.home,
            track: (child) => void processes.track(child),
            logger: log,
            now,
          }),
        rulesFile: shell.rulesFile,
        approve,
        clientName: session.client.name,
        now,
      }),
    ...(options.desktop
      ? {
          desktop: async () => {
            const desktop = options.desktop as DesktopService;
            const status = await desktop.status();
            if (!status.available) return { unavailable: status.reason };
            const { createMcpDesktop } = await import('./mcp-desktop');
            return createMcpDesktop(desktop, now, process.platform === 'linux' ? () => x11WindowTitle() : undefined);
          },
        }
      : {}),
    servers: createServerPool({ configFile: mcpConfigPath(pathEnv), log }),
  });
  let bridge: RunningBridge | undefined;
  try {
    bridge = await startBridgeServer({ paths: bridgePaths(pathEnv), backend: broker, log });
  } catch (error) {
    log.warn('the MCP bridge socket could not be opened; deputy mcp cannot reach this host', { error: error instanceof Error ? error.message : String(error) });
  }
  processes.onShutdown(async () => {
    await bridge?.close();
    await broker.closeAll();
  });
  return { broker, bridge };
}

/**
 * A connected agent's shell whose code (the shell session, its gate, the SSH client it can reach) is loaded on the
 * agent's first command, not when the host starts.
 */
function lazyMcpShell(deps: McpShellDeps): McpShell {
  let made: Promise<McpShell> | undefined;
  const real = (): Promise<McpShell> => (made ??= import('./mcp-shell').then(({ createMcpShell }) => createMcpShell(deps)));
  return {
    call: async (name, args, callId, signal) => (await real()).call(name, args, callId, signal),
    close: async () => {
      if (made) await (await made).close();
    },
  };
}

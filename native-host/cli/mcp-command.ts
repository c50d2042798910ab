import type { Command } from 'commander';
import { readMcpEarly } from '../mcp/early-initialize';

/** Registers `deputy mcp`, the MCP server other agents start (e.g. `claude mcp add deputy -- deputy mcp`). */
export function registerMcpCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('mcp')
    .description("serve Deputy's browser (and, when allowed, shell and desktop) to an MCP client over stdio; needs the browser with Deputy running")
    .action(async () => setExitCode(await mcpCommand()));
}

/** Runs until the client closes stdin. stdout carries MCP messages only; the log goes to stderr. */
/**
 * `initialize` is answered from stdin before the MCP SDK is loaded (early-initialize.ts); the server is loaded at the
 * first input and goes on from everything read.
 */
export async function mcpCommand(): Promise<number> {
  const early = readMcpEarly({ stdin: process.stdin, stdout: process.stdout });
  await early.firstInput;
  const [{ createLogger, streamSink }, { bridgePaths }, { createDeputyMcpServer }, { LineStdioServerTransport }, { currentPathEnv }] = await Promise.all([
    import('../log/logger'),
    import('../mcp/bridge-paths'),
    import('../mcp/mcp-server'),
    import('../mcp/stdio-server-transport'),
    import('../paths'),
  ]);
  const log = createLogger('mcp', [streamSink(process.stderr)], process.env.DEPUTY_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const server = createDeputyMcpServer({ paths: bridgePaths(currentPathEnv()), log });
  const transport = new LineStdioServerTransport(process.stdin, process.stdout, early);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // The SDK chains the handler set above when it connects, so the end of input still resolves `closed`.
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}

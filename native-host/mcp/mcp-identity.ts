import { HOST_VERSION } from '../version';

/**
 * What `deputy mcp` says of itself in its answer to `initialize`, in a module with no library behind it: the answer is
 * given before the MCP SDK is loaded (early-initialize.ts), and the SDK's server is built from the same values
 * (mcp-server.ts), so the two answers are one (tests/unit/native-host/mcp/early-initialize.test.ts compares them).
 */
export const MCP_SERVER_INFO = { name: 'deputy', title: 'Deputy', version: HOST_VERSION };

export const MCP_SERVER_CAPABILITIES = { tools: { listChanged: true } };

export const MCP_INSTRUCTIONS = [
  "Deputy gives you the user's own browser (where they are logged in), and, when they allow it, commands on their machine and their desktop.",
  'Read a page with browser_snapshot, then act on its numbered elements with the other browser_ tools. The user stays in charge:',
  "some steps wait for their approval in Deputy's side panel (the call returns when they answer), some are refused, and personal data comes back as {{placeholders}}.",
].join(' ');

/**
 * The protocol versions the bundled SDK speaks, newest first, as its types.js declares them (LATEST_PROTOCOL_VERSION
 * first, then SUPPORTED_PROTOCOL_VERSIONS). A unit test fails when an SDK update changes them, so this list follows.
 */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** The SDK server's rule: the client's version when the server speaks it, else the newest. */
export function negotiatedProtocolVersion(requested: string): string {
  return MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : (MCP_PROTOCOL_VERSIONS[0] ?? requested);
}

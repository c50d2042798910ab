import { z } from 'zod';
import { defineChannel } from './channel';
import { formMethods } from './form-protocol';

/**
 * The MCP bridge as data. Three channels carry it:
 * - `bridge` (deputy mcp, or a CLI shell task, <-> the running native host over a user-only local socket);
 * - the host's own methods and events for MCP (`mcpHostMethods`, `mcpHostEvents`, merged into the host channel);
 * - `host-request`, the requests the host sends the extension: page tools run in the browser, and every approval and
 *   the live log of what connected agents do live in the side panel.
 */

/** What the user allows connected agents (MCP clients) to do. Nothing works until `enabled` is on. */
export const McpSettings = z.object({
  enabled: z.boolean().default(false),
  /** ask: each action waits for the user's approval; act: routine actions run, risky ones still ask. */
  mode: z.enum(['ask', 'act']).default('act'),
  /** Offer the shell tools (commands on this machine; each asks first unless the user's shell rules allow it). */
  shell: z.boolean().default(false),
  /** Offer desktop screenshots and input (when a display is available). */
  desktop: z.boolean().default(false),
});
export type McpSettings = z.infer<typeof McpSettings>;

export const DEFAULT_MCP_SETTINGS: McpSettings = { enabled: false, mode: 'act', shell: false, desktop: false };

/** The calling client as it named itself in MCP's initialize (clientInfo), or a Deputy task. */
export const McpClientInfo = z.object({ name: z.string().min(1).max(200), version: z.string().max(100).default('') });
export type McpClientInfo = z.infer<typeof McpClientInfo>;

/** One connection to the bridge. `task` is Deputy's own shell task using the page tools, not an outside agent. */
export const McpSessionRef = z.object({
  id: z.string().min(1).max(128),
  client: McpClientInfo,
  kind: z.enum(['mcp', 'task']),
});
export type McpSessionRef = z.infer<typeof McpSessionRef>;

/** A tool result part, as MCP carries it. */
export const McpContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string().max(64) }),
]);
export type McpContent = z.infer<typeof McpContent>;

export const McpCallResult = z.object({ content: z.array(McpContent), isError: z.boolean() });
export type McpCallResult = z.infer<typeof McpCallResult>;

/** A tool as MCP lists it. */
export const McpToolDescriptor = z.object({
  name: z.string().min(1).max(128),
  title: z.string().max(200).optional(),
  description: z.string().max(20_000),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z
    .object({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});
export type McpToolDescriptor = z.infer<typeof McpToolDescriptor>;

/** What connected agents may use now: the extension's settings, with why a part is off. */
export const McpStatus = z.object({
  enabled: z.boolean(),
  mode: z.enum(['ask', 'act']),
  shell: z.boolean(),
  desktop: z.boolean(),
});
export type McpStatus = z.infer<typeof McpStatus>;

const CallId = z.string().min(1).max(128);

/**
 * A file on this computer that an agent's browser_upload names, as the host found it (an absolute path to a regular
 * file). The browser reads it from there; its bytes never travel over the bridge.
 */
export const McpUploadFile = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[/\\]/.test(name), 'A file name has no folders in it'),
  size: z.number().int().nonnegative(),
  type: z.string().max(200).default(''),
  path: z.string().min(1).max(4096),
});
export type McpUploadFile = z.infer<typeof McpUploadFile>;
const ToolArguments = z.record(z.string(), z.unknown()).default({});

/** deputy mcp (or a CLI shell task) <-> the running host, over the local socket. `bridge.hello` must come first. */
export const BridgeChannel = defineChannel(
  'bridge',
  {
    'bridge.hello': {
      params: z.object({
        /** The per-install token from the file beside the socket, which only the user can read. */
        token: z.string().min(1).max(256),
        client: McpClientInfo,
        kind: z.enum(['mcp', 'task']).default('mcp'),
        /** For a task: the mode the user chose for it (the page tools follow it instead of the MCP settings). */
        mode: z.enum(['ask', 'act']).optional(),
      }),
      result: z.object({ hostVersion: z.string(), sessionId: z.string() }),
    },
    'bridge.tools': {
      params: z.object({}),
      result: z.object({ tools: z.array(McpToolDescriptor), status: McpStatus.nullable() }),
    },
    'bridge.call': {
      params: z.object({ callId: CallId, name: z.string().min(1).max(128), arguments: ToolArguments }),
      result: McpCallResult,
    },
    'bridge.cancel': { params: z.object({ callId: CallId }), result: z.object({ cancelled: z.boolean() }) },
  },
  {
    /** The user pressed Stop for this agent in the side panel: the host closes the connection after this. */
    'bridge.stopped': z.object({ reason: z.string().max(2000) }),
    /** What the agent may use changed (MCP turned on, shell allowed): list the tools again. */
    'bridge.tools_changed': z.object({}),
  },
);
export type BridgeChannel = typeof BridgeChannel;
export type BridgeMethods = BridgeChannel['methods'];

/** One step of a connected agent as the side panel's log shows it. */
export const McpActivity = z.object({
  session: McpSessionRef,
  callId: CallId,
  tool: z.string().max(128),
  /** "Clicked [3] button "Save"", redacted. */
  text: z.string().max(2000),
  state: z.enum(['running', 'awaiting_approval', 'done', 'failed', 'denied', 'cancelled']),
  /** The first line of the result, redacted. */
  summary: z.string().max(2000).optional(),
  tabId: z.number().int().optional(),
  url: z.string().max(4000).optional(),
  at: z.number(),
});
export type McpActivity = z.infer<typeof McpActivity>;

/** Tools of the MCP servers the user configured in mcp.json, for a task in the browser. */
export const McpServerTool = z.object({ server: z.string().min(1).max(128), tool: McpToolDescriptor });
export type McpServerTool = z.infer<typeof McpServerTool>;

/** Methods the extension calls on the host for MCP. */
export const mcpHostMethods = {
  /** The panel's Stop: the host tells the agent, closes its connection and ends what it started (its shell processes). */
  'mcp.stop': { params: z.object({ sessionId: z.string().min(1).max(128) }), result: z.object({ stopped: z.boolean() }) },
  /** The tools of the user's MCP servers (mcp.json), with the servers that could not be reached and why. */
  'mcp.servers.tools': {
    params: z.object({}),
    result: z.object({ tools: z.array(McpServerTool), errors: z.array(z.object({ server: z.string(), message: z.string() })) }),
  },
  'mcp.servers.call': {
    params: z.object({ server: z.string().min(1).max(128), tool: z.string().min(1).max(128), arguments: ToolArguments }),
    result: McpCallResult,
  },
} as const;

/** Events the host sends the extension for the panel's log of connected agents. */
export const mcpHostEvents = {
  'mcp.session': z.object({ session: McpSessionRef, state: z.enum(['connected', 'disconnected']), reason: z.string().max(2000).optional() }),
  'mcp.activity': McpActivity,
} as const;

/** What an approval asked from the host shows, and the answer. */
export const McpApprovalParams = z.object({
  session: McpSessionRef,
  callId: CallId,
  tool: z.string().max(128),
  intent: z.string().max(4000),
  reason: z.string().max(4000),
  classes: z.array(z.string().max(32)).max(16),
  url: z.string().max(4000),
  alwaysAllowPrefix: z.string().max(500).optional(),
});
export type McpApprovalParams = z.infer<typeof McpApprovalParams>;

export const McpApprovalAnswer = z.object({ approved: z.boolean(), note: z.string().max(1000).optional(), alwaysAllowPrefix: z.string().max(500).optional() });
export type McpApprovalAnswer = z.infer<typeof McpApprovalAnswer>;

/**
 * Host-side text (shell output, desktop step results) checked for the user's personal data before it goes back to a
 * connected agent. The extension holds that data, so it redacts, with the session's redactor (the one its page calls
 * use, so a value gets the same {{placeholder}} in the browser and in the shell). Large text travels in chunks like any
 * message; the host cuts what is above this many characters in all before asking.
 */
export const MCP_REDACT_MAX_CHARS = 512_000;
export const McpRedactParams = z.object({
  session: McpSessionRef,
  texts: z.array(z.string()).max(64).refine((texts) => texts.reduce((sum, text) => sum + text.length, 0) <= MCP_REDACT_MAX_CHARS, `At most ${MCP_REDACT_MAX_CHARS} characters in all`),
});
export type McpRedactParams = z.infer<typeof McpRedactParams>;
export const McpRedactResult = z.object({ texts: z.array(z.string()) });
export type McpRedactResult = z.infer<typeof McpRedactResult>;

const PlaceholderName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'A placeholder name is lowercase letters, digits and underscores');

/**
 * An agent's desktop_type names the user's personal data by {{placeholder}}: the extension asks the user in the side
 * panel (the card names the values and the window they go to) and, only when approved, answers with the values.
 */
export const McpRevealParams = McpApprovalParams.extend({
  names: z.array(PlaceholderName).min(1).max(16),
  /** Where the values go, as the user knows it: the focused window's title. */
  destination: z.string().min(1).max(500),
});
export type McpRevealParams = z.infer<typeof McpRevealParams>;
export const McpRevealResult = z.object({
  approved: z.boolean(),
  note: z.string().max(1000).optional(),
  /** The values by name; present only when approved. */
  values: z.record(PlaceholderName, z.string()).default({}),
});
export type McpRevealResult = z.infer<typeof McpRevealResult>;

/** Requests the host sends the extension (the reverse of the host channel), answered on the same native port. */
export const HostRequestChannel = defineChannel(
  'host-request',
  {
    /** A web form a fix loop's job needs filled in the browser (see form-protocol). */
    ...formMethods,
    'mcp.status': { params: z.object({}), result: McpStatus },
    /** A page tool (browser_*) run by the extension's background on the session's tab, through the policy gate. */
    'mcp.page': {
      params: z.object({
        session: McpSessionRef,
        callId: CallId,
        tool: z.string().min(1).max(128),
        arguments: ToolArguments,
        mode: z.enum(['ask', 'act']).optional(),
        /** browser_upload's files, by path (its arguments name them by file name). */
        files: z.array(McpUploadFile).max(20).optional(),
      }),
      result: McpCallResult,
    },
    /** list_routines and run_routine: the user's saved routines, run as replays through the same gate as a task. */
    'mcp.routine': {
      params: z.object({ session: McpSessionRef, callId: CallId, tool: z.enum(['list_routines', 'run_routine']), arguments: ToolArguments }),
      result: McpCallResult,
    },
    /** A host-side step (a shell command, desktop input) that needs the user: shown in the side panel. */
    'mcp.approve': { params: McpApprovalParams, result: McpApprovalAnswer },
    /** Host-side text for a connected agent, redacted with the user's personal data. */
    'mcp.redact': { params: McpRedactParams, result: McpRedactResult },
    /** The values behind an agent's placeholders, after the user approved where they go. */
    'mcp.reveal': { params: McpRevealParams, result: McpRevealResult },
    /** The agent went away or cancelled: its pending approvals and running page calls end. */
    'mcp.cancel': { params: z.object({ sessionId: z.string().min(1).max(128), callId: CallId.optional(), reason: z.string().max(2000) }), result: z.object({}) },
  },
  {},
);
export type HostRequestChannel = typeof HostRequestChannel;
export type HostRequestMethods = HostRequestChannel['methods'];

/** What a connected agent is told while the user has not turned MCP on. */
export const MCP_DISABLED_MESSAGE =
  'Deputy does not take requests from other agents until the user allows it: in Deputy\'s side panel, open Settings, and under "Connected agents (MCP)" turn on "Let other agents use Deputy". Then call the tool again.';

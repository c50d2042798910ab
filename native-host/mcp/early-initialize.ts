import { MCP_INSTRUCTIONS, MCP_SERVER_CAPABILITIES, MCP_SERVER_INFO, negotiatedProtocolVersion } from './mcp-identity';

/** What was read before the MCP server was loaded, for its transport to go on from (stdio-server-transport.ts). */
export interface EarlyMcpInput {
  /** Every byte read so far, the answered `initialize` included: the server reads it all, in order. */
  bytes: Buffer;
  /** The id of the `initialize` already answered: the server's own answer to it is not sent a second time. */
  answeredId: string | number | undefined;
  ended: boolean;
}

export interface EarlyMcpReader {
  /** Settles at the first input (or its end): the moment to load the server. */
  readonly firstInput: Promise<void>;
  /** Stops reading and returns what was read; the caller attaches its own listeners in the same tick. */
  handOver(): EarlyMcpInput;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const onlyKeys = (value: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(value).every((key) => keys.includes(key));
const optional = (value: unknown, check: (item: unknown) => boolean): boolean => value === undefined || check(value);
const recordOfRecords = (value: unknown): boolean => isRecord(value) && Object.values(value).every(isRecord);

/** The client capabilities the early answer takes as they come; any other (tasks, a key it does not know) waits for the SDK. */
function plainCapabilities(value: unknown): boolean {
  if (!isRecord(value) || !onlyKeys(value, ['roots', 'sampling', 'elicitation', 'experimental', 'extensions'])) return false;
  const { roots, sampling, elicitation, experimental, extensions } = value;
  return (
    optional(roots, (item) => isRecord(item) && onlyKeys(item, ['listChanged']) && optional(item.listChanged, (flag) => typeof flag === 'boolean')) &&
    optional(sampling, (item) => isRecord(item) && onlyKeys(item, ['context', 'tools']) && recordOfRecords(item)) &&
    optional(elicitation, (item) => isRecord(item) && onlyKeys(item, ['form', 'url']) && Object.values(item).every((mode) => isRecord(mode) && Object.keys(mode).length === 0)) &&
    optional(experimental, recordOfRecords) &&
    optional(extensions, recordOfRecords)
  );
}

/**
 * The request `initialize` as the SDK's JSON-RPC and InitializeRequest schemas accept it, read by hand and kept
 * narrower than those (no extra keys, capabilities of the common kinds only, clientInfo of strings only): anything
 * else is left to the SDK, which answers it itself once loaded. The unit test holds the two side by side.
 */
export function readInitialize(value: unknown): { id: string | number; protocolVersion: string } | undefined {
  if (!isRecord(value) || !onlyKeys(value, ['jsonrpc', 'id', 'method', 'params']) || value.jsonrpc !== '2.0' || value.method !== 'initialize') return undefined;
  const { id, params } = value;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isRecord(params) || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return undefined;
  if (typeof params.protocolVersion !== 'string' || !plainCapabilities(params.capabilities)) return undefined;
  const info = params.clientInfo;
  if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined;
  if (!Object.entries(info).every(([key, item]) => ['name', 'version', 'title'].includes(key) && typeof item === 'string')) return undefined;
  return { id, protocolVersion: params.protocolVersion };
}

/** The answer to `initialize`, as the SDK's Server gives it (Server._oninitialize) for Deputy's server. */
export function initializeResult(requestedVersion: string): Record<string, unknown> {
  return {
    protocolVersion: negotiatedProtocolVersion(requestedVersion),
    capabilities: MCP_SERVER_CAPABILITIES,
    serverInfo: MCP_SERVER_INFO,
    instructions: MCP_INSTRUCTIONS,
  };
}

/**
 * A client starting `deputy mcp` gives up on a slow `initialize`, and the MCP SDK with its schemas (zod, ajv) is most
 * of what the command loads. So stdin is read at once and a first line that is a well-formed `initialize` is answered
 * here; every byte read stays queued for the SDK's server, which takes over with the same state it would have had
 * (it reads that `initialize` too; its answer is dropped as already given). Anything else waits for the server.
 */
export function readMcpEarly(io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): EarlyMcpReader {
  const chunks: Buffer[] = [];
  let answeredId: string | number | undefined;
  let looked = false;
  let ended = false;
  let settle: () => void = () => undefined;
  const firstInput = new Promise<void>((resolve) => (settle = resolve));

  const lookAtFirstLine = (): void => {
    const text = Buffer.concat(chunks).toString('utf8');
    const lines = text.split('\n');
    // The last piece has no newline yet; a first line still under way is looked at when it is whole.
    const first = lines.slice(0, -1).find((line) => line.trim() !== '');
    if (first === undefined) return;
    looked = true;
    let json: unknown;
    try {
      json = JSON.parse(first);
    } catch {
      return;
    }
    const request = readInitialize(json);
    if (!request) return;
    answeredId = request.id;
    io.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: initializeResult(request.protocolVersion) })}\n`);
  };
  const onData = (chunk: Buffer | string): void => {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (!looked) lookAtFirstLine();
    settle();
  };
  const onEnd = (): void => {
    ended = true;
    settle();
  };
  io.stdin.on('data', onData);
  io.stdin.on('end', onEnd);
  io.stdin.on('error', onEnd);
  return {
    firstInput,
    handOver() {
      io.stdin.off('data', onData);
      io.stdin.off('end', onEnd);
      io.stdin.off('error', onEnd);
      return { bytes: Buffer.concat(chunks), answeredId, ended };
    },
  };
}

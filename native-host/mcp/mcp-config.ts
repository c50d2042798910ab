import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError, describeZodError } from '../../shared/errors';
import { appPaths, type PathEnv } from '../paths';

/** A server Deputy starts itself and talks to over its standard input and output. */
const StdioServer = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  type: z.literal('stdio').optional(),
});

/** A server that already runs, reached over MCP's Streamable HTTP. */
const HttpServer = z.object({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  type: z.enum(['http', 'streamable-http']).optional(),
});

export const McpServerConfig = z.union([StdioServer.strict(), HttpServer.strict()]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The file the common clients share (Claude Desktop, Claude Code, Cursor): `{"mcpServers": {name: {...}}}`. */
// Names are checked after the record, because zod reports a bad record key only as "Invalid key in record".
export const McpConfigFile = z
  .object({ mcpServers: z.record(z.string(), McpServerConfig).default({}) })
  .superRefine((file, context) => {
    for (const name of Object.keys(file.mcpServers)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
        context.addIssue({ code: 'custom', path: ['mcpServers', name], message: 'server names are letters, digits, ".", "_" and "-" (at most 64)' });
      }
    }
  });
export type McpConfigFile = z.infer<typeof McpConfigFile>;

/** mcp.json in Deputy's data folder, or the file DEPUTY_MCP_CONFIG names. */
export function mcpConfigPath(pathEnv: PathEnv): string {
  return pathEnv.env.DEPUTY_MCP_CONFIG || join(appPaths(pathEnv).dataDir, 'mcp.json');
}

/** The user's MCP servers; none when the file does not exist. A file that cannot be read or parsed says where and why. */
export async function loadMcpConfig(file: string): Promise<McpConfigFile> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { mcpServers: {} };
    throw new AppError('bad_config', `Cannot read ${file}: ${String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new AppError('bad_config', `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}). It should look like {"mcpServers": {"name": {"command": "npx", "args": ["some-mcp-server"]}}}.`);
  }
  const parsed = McpConfigFile.safeParse(json);
  if (!parsed.success) throw new AppError('bad_config', `${file} is not a valid MCP settings file: ${describeZodError(parsed.error)}. Each server has either "command" (with "args", "env") or "url".`);
  return parsed.data;
}

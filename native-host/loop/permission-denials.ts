import { describeToolUse } from './claude-stream';
import { commandRules } from './fixer-settings';

/**
 * What Claude Code refused during a fixer run, from the `permission_denials` of its stream-json result
 * (`{ tool_name, tool_use_id, tool_input }` per refused call), and what the user can allow so the next run may do
 * it: the loop flag and the settings line. A refused run is reported as such, never as "changed nothing".
 */
export interface DeniedCall {
  /** "Bash sed -i s/a/b/ src/app.ts", "Edit src/app.ts". */
  call: string;
  /** For a shell command: the `--allow-command` value. */
  flag?: string;
  /** The permission rule for a settings file's `permissions.allow`. */
  settingsLine: string;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function deniedCalls(denials: readonly unknown[] | undefined): DeniedCall[] {
  const calls = new Map<string, DeniedCall>();
  for (const item of denials ?? []) {
    const entry = record(item);
    const tool = typeof entry.tool_name === 'string' ? entry.tool_name : 'a tool';
    const input = record(entry.tool_input);
    const command = typeof input.command === 'string' ? input.command.trim() : '';
    const call = describeToolUse(tool, input);
    if (tool === 'Bash' && command) {
      // The program and its first argument ("sed -i"), as a user would allow it; the full command is in `call`.
      const words = command.split(/\s+/);
      const prefix = words.slice(0, words[1]?.startsWith('-') ? 2 : 1).join(' ');
      calls.set(call, { call, flag: `--allow-command "${prefix}"`, settingsLine: `"${commandRules(prefix).find((rule) => rule.endsWith(':*)')) ?? `Bash(${prefix}:*)`}"` });
    } else calls.set(call, { call, settingsLine: `"${tool}"` });
  }
  return [...calls.values()];
}

/** One sentence per refused call: "Claude Code refused Bash sed -i ...: allow it with --allow-command "sed -i" (settings: "Bash(sed -i:*)")". */
export function refusalText(calls: readonly DeniedCall[], count: number): string {
  if (calls.length === 0)
    return `Claude Code refused ${count} tool call${count === 1 ? '' : 's'} (its stream did not name them): run the fixer with a broader --allow-command or permission mode`;
  return calls
    .map((item) =>
      item.flag
        ? `Claude Code refused ${item.call}: allow it with ${item.flag} (settings line: ${item.settingsLine})`
        : `Claude Code refused ${item.call}: allow the tool in the fixer's settings (${item.settingsLine} under permissions.allow) or with --permission-mode`,
    )
    .join('; ');
}

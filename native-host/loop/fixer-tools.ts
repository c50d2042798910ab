import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Every tool the pinned Claude Code CLI (@anthropic-ai/claude-code 2.1.197) can give the fixer, and how what it returns
 * reaches the fixer's model: the rule is that every tool result passes Deputy's redaction, or the call is refused with
 * what to use instead. The list is the CLI's own: the tools a headless run sends in its requests (the e2e fix-loop test
 * fails when a new version sends one not named here) and the other tool inputs its sdk-tools.d.ts declares.
 *
 * - `redacted`: the result is rewritten by the PostToolUse hook (Claude Code's `updatedToolOutput`) before the model
 *   reads it. A subagent's tools pass the same hooks, so an Agent's answer is made from redacted results too.
 * - `shell`: runs shell commands. Their output is redacted as it is written, by the shell prefix Claude Code runs every
 *   command through (CLAUDE_CODE_SHELL_PREFIX): a failing command's output reaches the model as an error, which no
 *   PostToolUse hook can rewrite.
 * - `refused`: what it returns reaches a model before any hook can see it, or arrives outside a tool result.
 */
export type ToolHandling = { how: 'redacted' | 'shell' } | { how: 'refused'; reason: string };

const REDACTED: ToolHandling = { how: 'redacted' };

export const FIXER_TOOLS: Readonly<Record<string, ToolHandling>> = {
  Agent: REDACTED,
  // The stream's init event names the Agent tool by its older name.
  Task: REDACTED,
  Bash: { how: 'shell' },
  BashOutput: REDACTED,
  KillShell: REDACTED,
  CronCreate: REDACTED,
  CronDelete: REDACTED,
  CronList: REDACTED,
  Edit: REDACTED,
  MultiEdit: REDACTED,
  Write: REDACTED,
  NotebookEdit: REDACTED,
  Read: REDACTED,
  NotebookRead: REDACTED,
  Glob: REDACTED,
  Grep: REDACTED,
  LS: REDACTED,
  ReportFindings: REDACTED,
  ScheduleWakeup: REDACTED,
  SendMessage: REDACTED,
  Skill: REDACTED,
  TaskCreate: REDACTED,
  TaskGet: REDACTED,
  TaskList: REDACTED,
  TaskOutput: REDACTED,
  TaskStop: REDACTED,
  TaskUpdate: REDACTED,
  TodoWrite: REDACTED,
  WebSearch: REDACTED,
  ExitPlanMode: REDACTED,
  EnterPlanMode: REDACTED,
  AskUserQuestion: REDACTED,
  ListMcpResourcesTool: REDACTED,
  ReadMcpResourceTool: REDACTED,
  WebFetch: {
    how: 'refused',
    reason: 'WebFetch hands the page to a second model before Deputy can redact it. If you need a page of the service, fetch it with curl in Bash (where the loop allows it): Deputy redacts command output',
  },
  Workflow: { how: 'refused', reason: 'a workflow reports back in a notification, outside the tool results Deputy redacts. Use the Agent tool, or do the work yourself' },
  Monitor: { how: 'refused', reason: 'Monitor reports a command\'s output in notifications, outside the tool results Deputy redacts. Run it with Bash (run_in_background) and Read its output file' },
  REPL: { how: 'refused', reason: 'REPL runs code outside the shell whose output Deputy redacts. Run it with Bash' },
  PowerShell: { how: 'refused', reason: 'PowerShell runs outside the shell whose output Deputy redacts. Use Bash' },
  EnterWorktree: { how: 'refused', reason: 'the fix must be made in the repository Deputy checks, commits and pushes, not in another worktree' },
  ExitWorktree: { how: 'refused', reason: 'the fix must be made in the repository Deputy checks, commits and pushes, not in another worktree' },
};

/** What Claude Code's Read tool sends the model as pictures or documents (its own list of image types, and PDF). */
const PICTURE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'pdf']);

/** The file's type by its first bytes, as Claude Code also goes by them: PNG, JPEG, GIF, WebP, PDF. */
function pictureByContent(head: Buffer): boolean {
  const ascii = head.toString('latin1');
  return (
    head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) ||
    head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) ||
    ascii.startsWith('GIF8') ||
    (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') ||
    ascii.startsWith('%PDF')
  );
}

/** The first bytes of a file, or undefined when it cannot be read (missing: the Read tool says so itself). */
export function fileHead(path: string): Buffer | undefined {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(16);
      const read = readSync(fd, buffer, 0, 16, 0);
      return buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Why a tool call may not run for the fixer, or undefined when its result can be redacted. `absolutePath` is the
 * call's file (Read's file_path) as the hook resolved it, or empty; `head` reads a file's first bytes (tests pass their own).
 */
export function toolRefusal(tool: string, absolutePath: string, head: (path: string) => Buffer | undefined = fileHead): string | undefined {
  if (tool.startsWith('mcp__')) return undefined;
  const handling = FIXER_TOOLS[tool];
  if (!handling) return `Deputy does not know what ${tool} returns, so it cannot redact it; use Bash, Read or Edit instead`;
  if (handling.how === 'refused') return handling.reason;
  if (tool === 'Read' && absolutePath) {
    const extension = absolutePath.slice(absolutePath.lastIndexOf('.') + 1).toLowerCase();
    const bytes = head(absolutePath);
    if (PICTURE_EXTENSIONS.has(extension) || (bytes && pictureByContent(bytes))) {
      return 'Deputy cannot redact what an image or a PDF shows, so the fixer may not read one. Read its text with a command instead (for a PDF: pdftotext FILE -); Deputy redacts command output';
    }
  }
  return undefined;
}

import { readdirSync } from 'node:fs';
import { z } from 'zod';
import { costOf } from '../../shared/agent/providers/pricing';
import type { ConversationMessage, Provider } from '../../shared/agent/providers/provider';
import type { ToolSchema } from '../../shared/agent/tool';
import { AppError } from '../../shared/errors';
import { LoopConfig } from '../../shared/protocol/loop-protocol';
import { parseLoopConfig } from './load-loop-config';

/**
 * `deputy loop --describe "..."` and the side panel's "Describe a loop": the model turns a sentence ("the results are
 * emailed to me, compare them with the template and fix the backend") into a loop definition, written as a call of
 * one tool whose input schema is the loop file's own schema. The answer is validated by the same zod schema as
 * deputy.loop.json; an invalid answer goes back to the model with the errors once, and a second invalid one is a
 * clear error. Nothing is started here: the caller shows the draft field by field and starts it only when the user
 * confirms.
 */
export const PROPOSE_TOOL = 'propose_loop';

export const DESCRIBE_SYSTEM = [
  'You turn a developer\'s description of a fix loop into a Deputy loop definition (the JSON of deputy.loop.json), by calling propose_loop once.',
  'A fix loop runs a check over and over: it starts the service\'s job (trigger), waits for its output (output), judges it (check: a shell command whose exit code says pass; or document: an output .pptx/.xlsx/.docx compared with a reference template), hands failures to a coding agent, and pushes the fix.',
  'Rules:',
  '- Use only fields of the schema. Leave out what the description does not say and what has a good default (budgets, fixer, retries, research).',
  '- "emailed to me" / "mailed" means output {"mail": true} (the user\'s mail settings). A folder means output {"folder", "pattern"}; a download URL means output {"url"}.',
  '- "compare with the template" means document {"template": "<path of the template in the repository>"}; pick the path from the repository\'s files.',
  '- "fix the backend" (or another part) means allowedPaths with that folder as a glob, like ["backend/**"], when such a folder exists.',
  '- A trigger is a shell command ({"command"}) or an http(s) URL ({"url"}); pick a script from the repository that makes the output when there is one.',
  '- Paths are relative to the repository root. Never invent hosts, addresses or credentials.',
].join('\n');

/** The loop file's schema as a tool input: the repository is given by the caller, never by the model. */
export function proposeTool(): ToolSchema {
  const schema = z.toJSONSchema(LoopConfig, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
  delete schema.$schema;
  delete schema.properties?.repo;
  schema.required = (schema.required ?? []).filter((name) => name !== 'repo');
  mailAsUsersOwn(schema.properties?.output);
  return { name: PROPOSE_TOOL, description: 'Propose the loop definition (the content of deputy.loop.json, without repo).', parameters: schema };
}

/**
 * The model may say only that the output comes by mail (`"mail": true`: the user's own mailbox settings, as a loop file
 * may); a mailbox's host, user and password are never the model's to write.
 */
function mailAsUsersOwn(output: unknown): void {
  const variants = (output as { anyOf?: Array<{ properties?: Record<string, unknown> }> } | undefined)?.anyOf ?? [];
  for (const variant of variants) {
    if (variant.properties && 'mail' in variant.properties) {
      variant.properties.mail = { const: true, description: "The output is mailed to the user: wait for the mail in the user's mailbox (set up with deputy mail)" };
    }
  }
}

/** The repository's top-level files and folders, so the model can name the template and the folder to fix. */
export function repoListing(repo: string, max = 80): string {
  const lines: string[] = [];
  const walk = (dir: string, prefix: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (lines.length >= max || entry.name === '.git' || entry.name === 'node_modules') continue;
      lines.push(`${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory() && depth < 1) walk(`${dir}/${entry.name}`, `${prefix}${entry.name}/`, depth + 1);
    }
  };
  walk(repo, '', 0);
  return lines.join('\n');
}

export interface LoopDraft {
  /** The definition as the model wrote it (paths relative to the repository), valid as a loop file. */
  definition: Record<string, unknown>;
  /** The same, parsed: defaults filled in and paths resolved. */
  config: LoopConfig;
  /** "anthropic/claude-sonnet-4-6": the model that drafted it. */
  model: string;
  /** What drafting cost, when the model's price is known. */
  costUsd?: number;
}

type Attempt = { ok: true; definition: Record<string, unknown>; config: LoopConfig } | { ok: false; problem: string };

function checkAnswer(args: string | undefined, repo: string): Attempt {
  if (args === undefined) return { ok: false, problem: `no ${PROPOSE_TOOL} call in the answer` };
  let json: unknown;
  try {
    json = JSON.parse(args);
  } catch {
    return { ok: false, problem: `the ${PROPOSE_TOOL} arguments are not valid JSON` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, problem: `the ${PROPOSE_TOOL} arguments are not one JSON object` };
  const definition = { ...(json as Record<string, unknown>) };
  delete definition.repo;
  try {
    return { ok: true, definition, config: parseLoopConfig({ ...definition, repo }, "the model's draft", { baseDir: repo }) };
  } catch (error) {
    // An invalid definition goes back to the model; a mailbox that is not set up is the user's to fix, not the model's.
    if (error instanceof AppError && error.code !== 'bad_request') {
      throw new AppError(error.code, `The drafted loop takes its output from your mailbox, which cannot be used yet: ${error.message}. Set it up with deputy mail login (or DEPUTY_MAIL_CONFIG), then describe the loop again`);
    }
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Asks the model for a loop definition; one retry with the validation errors, then a clear error. */
export async function draftLoop(description: string, repo: string, provider: Provider, options: { signal?: AbortSignal } = {}): Promise<LoopDraft> {
  const text = description.trim();
  if (!text) throw new AppError('bad_request', 'Describe the loop in words, like --describe "the results are emailed to me, compare them with the template and fix the backend"');
  const tool = proposeTool();
  const messages: ConversationMessage[] = [{ role: 'user', content: `The loop, as the developer describes it:\n${text}\n\nThe repository's files:\n${repoListing(repo) || '(empty)'}` }];
  let problem = '';
  let costUsd: number | undefined = 0;
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const reply = await provider.complete({ system: DESCRIBE_SYSTEM, messages, tools: [tool] }, options.signal ? { signal: options.signal } : {});
    const cost = costOf(reply.model || provider.model, reply.usage, provider.free ? { free: true } : {});
    costUsd = cost === null || costUsd === undefined ? undefined : costUsd + cost;
    const call = reply.toolCalls.find((item) => item.name === PROPOSE_TOOL);
    const result = checkAnswer(call?.arguments, repo);
    if (result.ok) return { definition: result.definition, config: result.config, model: `${provider.label}/${provider.model}`, ...(costUsd !== undefined ? { costUsd } : {}) };
    problem = result.problem;
    const id = call?.id ?? 'none';
    messages.push({ role: 'assistant', content: reply.text, toolCalls: call ? [call] : [] });
    if (call) messages.push({ role: 'tool', toolCallId: id, name: PROPOSE_TOOL, content: `Invalid: ${problem}. Call ${PROPOSE_TOOL} again with a corrected definition.`, isError: true });
    else messages.push({ role: 'user', content: `Your answer did not call ${PROPOSE_TOOL}. Call it with the loop definition.` });
  }
  throw new AppError(
    'bad_reply',
    `${provider.label}/${provider.model} did not draft a valid loop definition in two tries (${problem}). Describe the loop again with more detail (which command starts the job, where its output goes, which template), or write deputy.loop.json yourself (deputy loop --help lists its fields)`,
  );
}

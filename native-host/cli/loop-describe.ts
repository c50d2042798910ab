import { join } from 'node:path';
import type { LoopConfig } from '../../shared/protocol/loop-protocol';
import { draftLoop } from '../loop/describe-loop';
import { draftFields, draftFieldsText } from '../loop/loop-draft-fields';
import { researchModelFromEnv } from '../loop/research-model';
import { shellWord } from '../loop/shell-quote';
import { writeFileAtomic } from '../atomic-file';
import { terminalPrompts, type Terminal } from './terminal-prompts';
import { UsageError } from './usage-error';

export interface DescribeOptions {
  describe: string;
  json?: boolean;
  researchProvider?: string;
  researchModel?: string;
  researchBaseUrl?: string;
}

export interface DescribeIo {
  terminal: Terminal & { output: NodeJS.WritableStream & { isTTY?: boolean } };
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  now: () => Date;
  signal?: AbortSignal;
}

/**
 * `deputy loop --describe "..."`: the model drafts the loop (the research model: --research-provider, --research-model,
 * --research-base-url and the key from the environment), the draft is saved as a loop file in the state folder and
 * shown field by field. On a terminal the user is asked whether to start it; the file is returned only on "y". Without
 * a terminal nothing starts: the draft and the command that starts it are printed.
 */
export async function describeLoop(options: DescribeOptions, repo: string, stateDir: string, io: DescribeIo): Promise<string | undefined> {
  const spec = {
    enabled: true,
    ...(options.researchProvider ? { provider: options.researchProvider as NonNullable<LoopConfig['research']['provider']> } : {}),
    ...(options.researchModel ? { model: options.researchModel } : {}),
    ...(options.researchBaseUrl ? { baseUrl: options.researchBaseUrl } : {}),
  };
  const model = researchModelFromEnv(spec, io.env);
  if ('unavailable' in model) throw new UsageError(`Drafting a loop needs a model: ${model.unavailable.replace(/^Research when stuck was skipped: /, '')}`);
  const label = `${model.provider.label}/${model.provider.model}`;
  io.stderr.write(`Drafting the loop with ${label}...\n`);
  const draft = await draftLoop(options.describe, repo, model.provider, io.signal ? { signal: io.signal } : {});
  const file = join(stateDir, 'drafts', `loop-${io.now().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileAtomic(file, `${JSON.stringify(draft.definition, null, 2)}\n`);
  const fields = draftFields(draft.definition);
  const start = `deputy loop --repo ${shellWord(repo)} --config ${shellWord(file)}`;
  const out = io.terminal.output;
  if (options.json) {
    out.write(`${JSON.stringify({ type: 'loop.draft', model: draft.model, definition: draft.definition, fields, file, start, started: false })}\n`);
    return undefined;
  }
  const cost = draft.costUsd === undefined ? 'price unknown' : `$${draft.costUsd.toFixed(4)}`;
  out.write(`The loop as ${draft.model} drafted it (${cost}):\n${draftFieldsText(fields)}\nSaved as ${file}\n`);
  if (io.terminal.input.isTTY !== true || out.isTTY !== true) {
    out.write(`Not started: there is no terminal to confirm on. Check the draft, then start it with:\n  ${start}\n`);
    return undefined;
  }
  const prompts = terminalPrompts(io.terminal, 'ask');
  try {
    if (await prompts.confirm('Start this loop?', io.signal)) return file;
  } finally {
    prompts.close();
  }
  out.write(`Not started. To start it later (or after editing the file):\n  ${start}\n`);
  return undefined;
}

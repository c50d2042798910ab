import { readFileSync } from 'node:fs';
import { parseHookRules, runHook, type HookRulesFile } from './loop/pre-tool-use-hook';

/**
 * The guard hook Claude Code runs before each writing tool call of a fix loop, built as its own small file
 * (dist-host/loop-hook.mjs) so it starts in tens of milliseconds instead of loading the whole host. The call comes as
 * JSON on stdin; exit 2 blocks it with the reason on stderr, which the CLI shows to the model.
 */
function main(argv: string[]): number {
  const at = argv.indexOf('--rules');
  const rulesFile = at === -1 ? undefined : argv[at + 1];
  let rules: HookRulesFile;
  try {
    if (!rulesFile) throw new Error('no --rules <file> given');
    rules = parseHookRules(JSON.parse(readFileSync(rulesFile, 'utf8')));
  } catch (error) {
    // Failing closed: without its rules the guard cannot tell a safe edit from a harmful one.
    process.stderr.write(`Deputy guard: cannot read the rules file ${rulesFile ?? ''} (${error instanceof Error ? error.message : String(error)}), so the tool call is refused.\n`);
    return 2;
  }
  const result = runHook(readFileSync(0, 'utf8'), rules);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

process.exitCode = main(process.argv.slice(2));

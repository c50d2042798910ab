import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import { documentCheck } from './document-check';
import type { CheckOutcome, CheckRunner } from './loop-context';
import { runCheck } from './run-check';

/** The check command, its output read as TAP, JUnit, vitest, jest, pytest or plain text. */
export const commandCheck: CheckRunner = async (context, outputFile) => {
  const { state, deps } = context;
  const check = state.config.check;
  if (!check) throw new AppError('bad_config', 'The loop has no check command to run: set "check" in the loop definition');
  const result = await runCheck(check, state.repo, outputFile, deps.run, deps.signal, join(deps.paths.dir, `junit-${state.iteration}.xml`));
  return { passed: result.passed, format: result.format, findings: result.failures };
};

/** Both checks' results as one: it passes when both do; a halt of either stops the loop. */
function combine(first: CheckOutcome, second: CheckOutcome): CheckOutcome {
  const halt = first.halt ?? second.halt;
  const fixerText = first.fixerText ?? second.fixerText;
  const document = first.document ?? second.document;
  return {
    passed: first.passed && second.passed,
    format: `${first.format}+${second.format}`,
    findings: [...first.findings, ...second.findings],
    ...(fixerText ? { fixerText } : {}),
    ...(document ? { document } : {}),
    ...(halt ? { halt } : {}),
  };
}

/**
 * The check a loop's definition asks for: the command; in document mode the output document judged against its
 * template, and when a command is given too, both (the document first, so a hollow output stops before the tests run).
 */
export const configuredCheck: CheckRunner = async (context, outputFile) => {
  const { config } = context.state;
  if (!config.document) return commandCheck(context, outputFile);
  const judged = await documentCheck(config.document)(context, outputFile);
  if (!config.check || judged.halt) return judged;
  return combine(judged, await commandCheck(context, outputFile));
};

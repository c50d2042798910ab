import { AppError } from '../../shared/errors';
import type { FormFill, FormFillResult } from '../../shared/protocol/form-protocol';
import type { TriggerSpec } from '../../shared/protocol/loop-protocol';
import { TriggerError } from './trigger-error';

export type PageTriggerSpec = Extract<TriggerSpec, { page: string }>;

/**
 * Fills a web form in a browser with Deputy's extension: over native messaging when the loop runs in the host the
 * side panel talks to, or in a Chromium the CLI starts itself.
 */
export type FormFiller = (request: FormFill, signal: AbortSignal | undefined) => Promise<FormFillResult>;

/** What a form fill is called in events and errors. */
export function describeFormTrigger(spec: PageTriggerSpec): string {
  const count = Object.keys(spec.fields).length;
  return `the form on ${spec.page} (${count} field${count === 1 ? '' : 's'})`;
}

/**
 * Starts the job through its web form. A fill that failed before the submit button was pressed never reached the
 * service (TriggerError.sent false); one that was sent but not confirmed may have started the job.
 */
export async function runFormTrigger(spec: PageTriggerSpec, fill: FormFiller | undefined, signal?: AbortSignal): Promise<{ target: string; result: string }> {
  const target = describeFormTrigger(spec);
  if (!fill) {
    throw new TriggerError('unavailable', `The trigger fills ${target} in the browser, and no browser with Deputy's extension is connected: run the loop from the side panel, or from deputy loop with the extension built (npm run build)`, false, true);
  }
  let result: FormFillResult;
  try {
    result = await fill({ url: spec.page, fields: spec.fields, confirm: spec.confirm, timeoutSeconds: spec.timeoutSeconds, ...(spec.submit ? { submit: spec.submit } : {}) }, signal);
  } catch (error) {
    if (signal?.aborted) throw new AppError('cancelled', `Stopped while filling ${target}`);
    if (error instanceof TriggerError) throw error;
    // The browser went away or stopped answering mid-fill: whether the form was sent is unknown, so it counts as sent.
    const message = error instanceof Error ? error.message : String(error);
    throw new TriggerError(error instanceof AppError ? error.code : 'unavailable', `Filling ${target} failed: ${message}`, true);
  }
  if (result.accepted) return { target, result: `form accepted: "${result.confirmation ?? spec.confirm}"` };
  const seen = result.pageExcerpt ? `. The page shows: "${result.pageExcerpt}"` : '';
  throw new TriggerError(result.failedAt === 'confirm' ? 'timeout' : 'unavailable', `${result.message}${seen}`, result.submitted, result.failedAt === 'fill');
}

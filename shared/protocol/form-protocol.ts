import { z } from 'zod';
import { defineChannel } from './channel';

/**
 * A web form filled by Deputy itself: the front door of services that only have a page. The host (or the CLI) asks
 * the extension to open the page in a tab of its own, fill the named fields, press the submit button and wait for the
 * page to say the form was accepted. Deterministic: the fields are found by what the page labels them, each value is
 * read back after typing, and no model is involved. Kept apart from the other channels so that this one request, which
 * the host sends to the extension, stays small.
 */

/** A field's value: text to type or an option to pick, true/false for a checkbox or radio button, options to select. */
export const FormFieldValue = z.union([z.string(), z.boolean(), z.array(z.string()).min(1)]);
export type FormFieldValue = z.infer<typeof FormFieldValue>;

export const FormFill = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe('The page with the form'),
  fields: z
    .record(z.string().min(1).max(200), FormFieldValue)
    .default({})
    .describe('Field label (as the page shows it, or its placeholder) to value'),
  submit: z.string().min(1).max(200).optional().describe('The label of the button that sends the form; found by itself when the page has one such button'),
  confirm: z.string().min(1).max(200).describe('Text the page shows once the form was accepted'),
  timeoutSeconds: z.number().positive().max(600).default(120),
});
export type FormFill = z.infer<typeof FormFill>;
export type FormFillInput = z.input<typeof FormFill>;

/** One field as it was filled: the page's label it was found by, and the value read back from the page. */
export const FilledField = z.object({ field: z.string(), label: z.string(), value: z.string() });

/**
 * How a fill ended. `submitted` tells the caller whether the form may have reached the service: a fill that failed
 * before the submit button was pressed can be tried again safely, one that failed after it cannot (the service may
 * have started the job).
 */
export const FormFillResult = z.object({
  accepted: z.boolean(),
  submitted: z.boolean(),
  /**
   * Where a fill that was not accepted stopped: the page did not load, a field or the submit button could not be found
   * or kept its value (the definition needs a change: trying again cannot help), the click did not go through, or the
   * page did not confirm after the form was sent.
   */
  failedAt: z.enum(['load', 'fill', 'submit', 'confirm']).optional(),
  /** What happened, in a sentence: the confirmation found, or what went wrong and what to check. */
  message: z.string(),
  /** The page's address at the end (after the form was sent). */
  url: z.string(),
  fields: z.array(FilledField),
  /** The line of the page that holds the confirmation text. */
  confirmation: z.string().optional(),
  /** The start of what the page shows, when it did not confirm: what the user would see. */
  pageExcerpt: z.string().optional(),
});
export type FormFillResult = z.infer<typeof FormFillResult>;

export const formMethods = {
  'form.fill': { params: FormFill, result: FormFillResult },
} as const;

/** Host -> extension: the one request the native host sends to the browser, answered like any request. */
export const FormChannel = defineChannel('form', formMethods, {});
export type FormChannel = typeof FormChannel;

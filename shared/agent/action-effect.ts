import { z } from 'zod';

/** A field of a form as the gate needs it: what it is for, never what it holds. */
export const FieldFact = z.object({
  /** The field's `name` attribute: what the form calls it when it sends it. */
  name: z.string().max(100),
  /** Its accessible name (label), short. */
  label: z.string().max(100),
  /** The input type ("password", "email", ...), or the tag for textareas and selects. */
  type: z.string().max(30),
  autocomplete: z.string().max(60),
  /** Whether it holds a value now (the value itself never leaves the page). */
  filled: z.boolean(),
});
export type FieldFact = z.infer<typeof FieldFact>;

/** The form an element belongs to: where it sends what, and how. */
export const FormFact = z.object({
  /** The address it submits to, resolved as the browser would (the submitter's formaction first). */
  action: z.string().max(2000),
  /** get, post or dialog. */
  method: z.string().max(10),
  /** It opens its answer in a new tab or window (target=_blank or a named window). */
  newWindow: z.boolean(),
  fields: z.array(FieldFact).max(60),
  /** The label of the button that submits it (the default one for Enter). */
  submitLabel: z.string().max(100),
});
export type FormFact = z.infer<typeof FormFact>;

/**
 * What an action will do, resolved in the page before it runs: the frame it happens in, the link it follows, the form
 * it submits and where that form sends its fields, and the words and prices around the control. The policy gate
 * decides on this, not on the control's label alone. The content script builds it (see
 * extension/content/actions/action-effect.ts); values typed into fields are never part of it.
 */
export const ActionEffect = z.object({
  /** The address of the frame the element is in: actions are judged by this frame's origin. */
  frameUrl: z.string().max(2000),
  element: z.object({
    tag: z.string().max(30),
    /** The input or button type. */
    type: z.string().max(30),
    /** Its visible text or label. */
    text: z.string().max(200),
    /** Its class or id says it is destructive ("btn-danger", "delete-account"). */
    danger: z.boolean(),
  }),
  /** The link the action follows, when it activates one. */
  link: z.object({ url: z.string().max(2000), newWindow: z.boolean() }).optional(),
  /** The form the element belongs to, when it is in one. */
  form: FormFact.optional(),
  /** Whether the action submits that form (a submit button, Enter in one of its fields, typing with submit). */
  submits: z.boolean(),
  /** Text around the control (its row, card or form), for prices and wording near it. */
  context: z.string().max(600),
  /** For a select: the labels of the options that would be chosen. */
  options: z.array(z.string().max(200)).max(20).optional(),
});
export type ActionEffect = z.infer<typeof ActionEffect>;

/**
 * Facts an environment gathers about a call before the gate decides on it. Each is optional: a fact that could not be
 * gathered (the page did not answer) leaves the gate to decide on what it has, the browser's egress guard behind it.
 * New kinds of facts (a dialog that is open, a download the action starts) are added here as fields.
 */
export interface GateFacts {
  effect?: ActionEffect;
  /**
   * For a drag: what lies where it lets go (the element and the frame under the drop point). A drag carries what it
   * picks up (a selection, a field's text, a file) to the drop target, whose page script then has it, so the gate
   * judges the drop as it judges the start.
   */
  drop?: ActionEffect;
}

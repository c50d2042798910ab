/**
 * Every tool that can put data into a page, with the text it puts there, so the policy gate judges them all by the
 * same rule (which field, what it holds, where the field's form or the page's script sends it). A tool whose handler
 * resolves placeholders into a page must be listed here: tests/unit/shared/agent/page-input-gate.test.ts walks the
 * tool registry and fails for one that is not.
 */
export const PAGE_INPUT_TEXT: Record<string, (args: Record<string, unknown>) => string> = {
  type: (args) => (typeof args.text === 'string' ? args.text : ''),
  select: (args) => (Array.isArray(args.values) ? args.values.map(String).join(' ') : ''),
  set_value: (args) => (typeof args.value === 'string' ? args.value : ''),
  // A prompt's answer and a chat message have rules of their own in the gate (the page's script, the chat's facts).
  dialog: (args) => (typeof args.text === 'string' ? args.text : ''),
  chat_send: (args) => (typeof args.text === 'string' ? args.text : ''),
};

/** Tools that put text into one field of the page, judged by that field. */
export function fillsField(tool: string): boolean {
  return tool === 'type' || tool === 'select' || tool === 'set_value';
}

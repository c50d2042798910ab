import type { LoopDraftField } from '../../shared/protocol/loop-protocol';

/**
 * A drafted loop definition shown field by field, as the terminal and the side panel show it before the user
 * confirms: what each part of the loop will do ("Starts the job"), then the field's path in the loop file
 * ("trigger.command") and its value.
 */
export type DraftField = LoopDraftField;

const LABELS: Record<string, string> = {
  trigger: 'Starts the job',
  output: 'Takes the output',
  document: 'Judges the output document',
  check: 'Checks with',
  allowedPaths: 'The fixer may change only',
  protectedPaths: 'The fixer never touches',
  build: 'Builds with',
  deploy: 'After each push',
  logs: 'Reads the logs',
  branch: 'Pushes to the branch',
  remote: 'Pushes to the remote',
  budgets: 'Stops after',
  fixer: 'The fixer',
  research: 'When stuck',
  startFrom: 'Starts from',
};

const scalar = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function draftFields(definition: Record<string, unknown>): DraftField[] {
  const fields: DraftField[] = [];
  const visit = (label: string, path: string, value: unknown): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      fields.push({ label, field: path, value: value.every((item) => typeof item !== 'object' || item === null) ? value.map(scalar).join(', ') : JSON.stringify(value) });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) visit(label, `${path}.${key}`, inner);
    } else fields.push({ label, field: path, value: path === 'output.mail' && value === true ? 'your mail settings (deputy mail)' : scalar(value) });
  };
  for (const [key, value] of Object.entries(definition)) visit(LABELS[key] ?? key, key, value);
  return fields;
}

/** The fields as aligned lines for a terminal. */
export function draftFieldsText(fields: readonly DraftField[]): string {
  const labelWidth = Math.max(0, ...fields.map((item) => item.label.length));
  const fieldWidth = Math.max(0, ...fields.map((item) => item.field.length));
  return fields.map((item) => `  ${item.label.padEnd(labelWidth)}  ${item.field.padEnd(fieldWidth)}  ${item.value}`).join('\n');
}

/** One fact Deputy may tell support: a name the model reads (order_number) and the user's value. */
export interface FactRow {
  name: string;
  label: string;
  value: string;
}

export const DEFAULT_FACT_ROWS: FactRow[] = [
  { name: 'order_number', label: 'Order number', value: '' },
  { name: 'email', label: 'Email', value: '' },
  { name: 'name', label: 'Name', value: '' },
];

/** The filled rows as the facts `task.start` takes; empty rows are left out. */
export function factsOf(rows: readonly FactRow[]): Record<string, string> {
  const facts: Record<string, string> = {};
  for (const row of rows) if (row.value.trim() !== '') facts[row.name] = row.value.trim();
  return facts;
}

/**
 * The facts a chat case may share with support. Deputy tells support these and nothing else about the user: any
 * other personal data in a message is blocked before it leaves.
 */
export function ChatFactsEditor(props: { rows: FactRow[]; onChange: (rows: FactRow[]) => void }) {
  const set = (index: number, value: string): void => props.onChange(props.rows.map((row, i) => (i === index ? { ...row, value } : row)));
  return (
    <fieldset class="facts" data-testid="chat-facts">
      <legend class="field__label">Facts Deputy may share</legend>
      <span class="hint">Support is told these and nothing else about you. Leave a row empty to keep it private.</span>
      {props.rows.map((row, index) => (
        <label key={row.name} class="facts__row">
          <span>{row.label}</span>
          <input data-testid={`fact-${row.name}`} value={row.value} autocomplete="off" onInput={(event) => set(index, event.currentTarget.value)} />
        </label>
      ))}
    </fieldset>
  );
}

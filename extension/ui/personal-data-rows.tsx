/** Named personal values: the model writes {{name}}, and Deputy types the value into the page itself. */
export function PersonalDataRows(props: { rows: { name: string; value: string }[]; error: string | undefined; onChange: (rows: { name: string; value: string }[]) => void }) {
  const { rows } = props;
  const set = (index: number, change: Partial<{ name: string; value: string }>): void =>
    props.onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <div class="field" data-testid="personal-data">
      <span class="field__label">Named values</span>
      <span class="hint">The model sees only {'{{name}}'}; Deputy types the value itself.</span>
      {rows.map((row, index) => (
        <div class="pd-row" key={index}>
          <input aria-label={`Name ${index + 1}`} placeholder="full_name" value={row.name} onInput={(e) => set(index, { name: e.currentTarget.value })} />
          <input aria-label={`Value ${index + 1}`} type="password" autocomplete="off" placeholder="value" value={row.value} onInput={(e) => set(index, { value: e.currentTarget.value })} />
          <button type="button" class="link-button" aria-label={`Remove ${row.name || `row ${index + 1}`}`} onClick={() => props.onChange(rows.filter((_, i) => i !== index))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="link-button" data-testid="add-personal-value" onClick={() => props.onChange([...rows, { name: '', value: '' }])}>
        Add a value
      </button>
      {props.error ? (
        <span class="form-error" role="alert" data-testid="error-personal-data">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

import type { DocumentModel, Shape, TextStyle } from './document-model';

function style(value: TextStyle): string {
  const parts = [
    value.size !== undefined ? `${value.size}pt` : '',
    value.font ?? '',
    value.color ? `#${value.color}` : '',
    value.bold ? 'bold' : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

function shapeLine(shape: Shape): string | undefined {
  if (shape.inherited || shape.kind === 'line' || shape.kind === 'picture') return undefined;
  if (shape.table) return `  ${shape.name} [table]: ${shape.table.map((row) => row.join(' | ')).join(' / ')}`;
  const text = shape.text.trim();
  return `  ${shape.name} [${shape.role}]${style(shape.paragraphs[0]?.style ?? {})}: ${text === '' ? '(empty)' : text}`;
}

/**
 * A document as plain text for a model to read: each slide's shapes with their role and the style a viewer sees,
 * each sheet's header and first rows, each section's heading and paragraphs. Cut at `maxChars`, saying so.
 */
export function documentText(model: DocumentModel, maxChars = 12_000): string {
  const lines: string[] = [];
  if (model.kind === 'pptx') {
    for (const slide of model.slides) {
      lines.push(`Slide ${slide.number} (layout ${slide.layout}${slide.hidden ? ', hidden' : ''})`);
      for (const shape of slide.shapes) {
        const line = shapeLine(shape);
        if (line) lines.push(line);
      }
    }
  } else if (model.kind === 'xlsx') {
    for (const sheet of model.sheets) {
      lines.push(
        `Sheet "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}: ${sheet.rows.length} rows; columns ${sheet.columns.map((column) => `${column.letter} "${column.header}"`).join(', ')}`,
      );
      for (const row of sheet.rows.slice(0, 12))
        lines.push(`  row ${row.number}: ${row.cells.map((cell) => cell.error ?? cell.text).join(' | ')}`);
    }
  } else {
    if (model.cover.length > 0)
      lines.push(
        `Cover: ${model.cover
          .map((paragraph) => paragraph.text)
          .filter(Boolean)
          .join(' / ')}`,
      );
    for (const section of model.sections) {
      lines.push(`Section ${section.number} "${section.title}"${style(section.heading.style)}`);
      for (const paragraph of section.paragraphs) if (paragraph.text.trim()) lines.push(`  ${paragraph.text.trim()}`);
      for (const table of section.tables)
        lines.push(`  [table] ${table.rows.map((row) => row.join(' | ')).join(' / ')}`);
    }
  }
  const text = lines.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n... (cut at ${maxChars} characters)` : text;
}

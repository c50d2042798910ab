/**
 * The normalized model the readers produce and the checks read: one shape for each of the three formats, with
 * every style already resolved (a run's size, colour and font are what the viewer shows, whichever level set them).
 */

/** Resolved text formatting. Sizes in points, colours as upper-case RRGGBB, fonts by family name. */
export interface TextStyle {
  size?: number;
  color?: string;
  font?: string;
  bold?: boolean;
  italic?: boolean;
}

export interface TextRun {
  text: string;
  style: TextStyle;
  link?: string;
}

export interface Paragraph {
  text: string;
  level: number;
  runs: TextRun[];
  /** The style of the paragraph's longest run (what a reader sees as "its" style). */
  style: TextStyle;
  /** Line height as a multiple of single spacing, or a fixed height in points. */
  lineSpacing: { multiple: number } | { points: number };
  spaceBeforePt: number;
  spaceAfterPt: number;
  /** Left margin plus first-line indent, in EMU. */
  indentEmu: number;
  /** Horizontal alignment as the file names it: l, ctr, r, just, dist. */
  align: string;
}

/** Position and size in EMU (914400 per inch). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type ShapeRole = 'title' | 'subtitle' | 'body' | 'footer' | 'decoration';
export type ShapeKind = 'text' | 'picture' | 'table' | 'chart' | 'line' | 'graphic';

export interface Shape {
  id: string;
  name: string;
  kind: ShapeKind;
  role: ShapeRole;
  /** The placeholder this shape fills, if any; `type` defaults to "obj" as in the file format. */
  placeholder?: { type: string; idx?: string };
  /** A stable key for matching the same shape across decks made by the same code: placeholder or name. */
  key: string;
  box?: Box;
  paragraphs: Paragraph[];
  text: string;
  table?: string[][];
  links: string[];
  lineColor?: string;
  fillColor?: string;
  /** From the slide's layout or master, not the slide itself (a divider drawn on the layout, a logo). */
  inherited: boolean;
  autofit: 'none' | 'shape' | 'shrink';
  wrap: boolean;
  insets: { l: number; t: number; r: number; b: number };
}

export interface Slide {
  number: number;
  layout: string;
  hidden: boolean;
  shapes: Shape[];
}

export interface Deck {
  kind: 'pptx';
  path: string;
  width: number;
  height: number;
  slides: Slide[];
}

export type CellType = 'empty' | 'number' | 'string' | 'date' | 'boolean' | 'error';

export interface Cell {
  text: string;
  type: CellType;
  link?: string;
  numFmt?: string;
  /** A formula's cached result was an error (#REF!, #N/A, ...), or the cell holds one. */
  error?: string;
}

export interface Column {
  index: number;
  letter: string;
  header: string;
  headerStyle: TextStyle & { fill?: string };
}

export interface SheetRow {
  number: number;
  cells: Cell[];
}

/** One table of a sheet: a header row (when it has one) and the data rows below it, up to the next table. */
export interface SheetTable {
  /** 1-based row number of the header row, when the table has one. */
  headerRow?: number;
  columns: Column[];
  rows: SheetRow[];
}

/** A sheet: its first table's fields at the top level, and every table (the first included) in `tables`. */
export interface Sheet extends SheetTable {
  name: string;
  hidden: boolean;
  tables?: SheetTable[];
}

export interface Workbook {
  kind: 'xlsx';
  path: string;
  sheets: Sheet[];
}

export interface WordParagraph {
  text: string;
  styleName: string;
  /** 0 for a Title paragraph, 1-9 for headings, undefined for body text. */
  headingLevel?: number;
  style: TextStyle;
  runs: TextRun[];
  links: string[];
}

export interface WordTable {
  rows: string[][];
}

export interface Section {
  /** "3.2": the heading's position in the outline, or the number written in the heading itself. */
  number: string;
  title: string;
  level: number;
  heading: WordParagraph;
  paragraphs: WordParagraph[];
  tables: WordTable[];
}

export interface WordDocument {
  kind: 'docx';
  path: string;
  /** What comes before the first heading: the cover or title page. */
  cover: WordParagraph[];
  coverTables: WordTable[];
  sections: Section[];
}

export type DocumentModel = Deck | Workbook | WordDocument;

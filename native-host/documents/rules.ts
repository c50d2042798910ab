import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError, describeZodError } from '../../shared/errors';

/**
 * The rules file (`rules.json`): what an output must match. Learning from a reference (or a known-good output with
 * `deputy compare --learn`) fills every field it can; a user's file overrides field by field. Unknown keys are
 * refused, so a typo never silently turns a check off.
 */
const Hex = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/, 'expected a colour as RRGGBB, e.g. "1F3864"')
  .transform((value) => value.replace('#', '').toUpperCase());

export const StyleRule = z
  .object({
    size: z.number().positive().describe('font size in points').optional(),
    color: Hex.describe('text colour as RRGGBB').optional(),
    font: z.string().min(1).describe('font family').optional(),
    bold: z.boolean().optional(),
  })
  .strict();
export type StyleRule = z.infer<typeof StyleRule>;

export const Range = z
  .object({ min: z.number().nonnegative().optional(), max: z.number().nonnegative().optional() })
  .strict();
export type Range = z.infer<typeof Range>;

export const SlideKindRules = z
  .object({
    title: StyleRule.optional(),
    subtitle: StyleRule.optional(),
    body: StyleRule.optional(),
    titleTopIn: z.number().describe('top of the title, inches from the slide top').optional(),
    titleAlign: z.enum(['l', 'ctr', 'r', 'just', 'dist']).describe('the title paragraph alignment').optional(),
    contentTopIn: z.number().describe('where the content below the title starts, inches from the slide top').optional(),
    dividers: z.array(z.object({ yIn: z.number(), color: Hex.optional() }).strict()).optional(),
    descriptions: z.record(z.string(), Range).describe('words per description, by shape key').optional(),
    paragraphs: Range.describe('non-empty body paragraphs per slide').optional(),
    tables: z.array(z.object({ columns: z.array(z.string()) }).strict()).optional(),
    allowedOverlaps: z.array(z.tuple([z.string(), z.string()])).optional(),
    overflowTolerance: z
      .number()
      .min(1)
      .describe('estimated text height / shape height allowed before overflow is reported')
      .optional(),
  })
  .strict();
export type SlideKindRules = z.infer<typeof SlideKindRules>;

export const ShapeRule = z
  .object({
    name: z.string(),
    placeholder: z
      .string()
      .describe('the placeholder the shape fills, e.g. "ph:title": matched by it before the name')
      .optional(),
    kind: z.enum(['text', 'picture', 'table', 'chart', 'graphic']),
    role: z
      .enum(['title', 'subtitle'])
      .describe("a text that is the slide's title or subtitle: matched by that role before the name")
      .optional(),
    box: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .describe('left, top, width, height in inches')
      .optional(),
    text: z.boolean().describe('the shape holds text in the template').optional(),
    style: StyleRule.optional(),
  })
  .strict();
export type ShapeRule = z.infer<typeof ShapeRule>;

export const PptxRules = z
  .object({
    slides: Range.optional(),
    /** Per slide of the template (by position), its pictures, charts, diagrams, tables and texts: checked when the output has as many slides. */
    shapes: z.array(z.array(ShapeRule)).optional(),
    /** Slide kinds: "cover" for slide 1, otherwise the layout's name. */
    kinds: z.record(z.string(), SlideKindRules).optional(),
    requiredKinds: z.array(z.string()).optional(),
    cover: z
      .object({ roles: z.array(z.enum(['title', 'subtitle'])).optional(), labels: z.array(z.string()).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type PptxRules = z.infer<typeof PptxRules>;

const TableRules = z
  .object({
    required: z.boolean().optional(),
    hidden: z.boolean().describe('the sheet is hidden in the template: missing, it is a medium finding (charts and formulas may read it)').optional(),
    columns: z.array(z.string()).describe('required columns, in order').optional(),
    rows: Range.describe('data rows below the header').optional(),
    keyColumn: z.string().describe('a column whose values must be unique').optional(),
    filled: z.array(z.string()).describe('columns that must have a value in every row').optional(),
    descriptions: z.record(z.string(), Range).describe('words per cell, by column').optional(),
    links: z.array(z.string()).describe('columns whose cells must be real hyperlinks').optional(),
    numeric: z.array(z.string()).describe('columns whose values must be numbers').optional(),
    numberFormats: z.record(z.string(), z.string()).optional(),
    header: StyleRule.extend({ fill: Hex.optional() }).strict().optional(),
  })
  .strict();

export const SheetRules = TableRules.extend({
  /** The sheet's second, third... table (the first is described by the fields above). */
  tables: z.array(TableRules).optional(),
}).strict();
export type SheetRules = z.infer<typeof SheetRules>;

export const XlsxRules = z
  .object({ sheets: z.record(z.string(), SheetRules).optional(), sheetOrder: z.array(z.string()).optional() })
  .strict();
export type XlsxRules = z.infer<typeof XlsxRules>;

export const DocxRules = z
  .object({
    sections: z.array(z.string()).describe('required section titles, in order').optional(),
    cover: z
      .object({ title: z.boolean().optional(), labels: z.array(z.string()).optional() })
      .strict()
      .optional(),
    headings: z.record(z.string(), StyleRule).describe('by level: "0" for the Title style, "1", "2", ...').optional(),
    body: StyleRule.optional(),
    sectionText: z
      .record(z.string(), Range)
      .describe('sections that must have body text, with its length in words')
      .optional(),
    sectionWords: Range.describe('words of body text for sections not listed in sectionText').optional(),
    paragraphsPerSection: Range.optional(),
    tables: z.array(z.object({ section: z.string(), columns: z.array(z.string()) }).strict()).optional(),
  })
  .strict();
export type DocxRules = z.infer<typeof DocxRules>;

export const SeverityOverride = z.enum(['critical', 'high', 'medium', 'off']);

export const Rules = z
  .object({
    $schema: z.string().optional(),
    kind: z.enum(['pptx', 'xlsx', 'docx']).optional(),
    notes: z.string().describe("the template's reference notes, handed to the fixer").optional(),
    severity: z.record(z.string(), SeverityOverride).describe('per rule id: a new severity, or "off"').optional(),
    accepted: z
      .array(z.object({ rule: z.string(), location: z.string(), actual: z.string() }).strict())
      .describe(
        'what the reference itself shows (an empty placeholder, a cell with #N/A): the same finding at the same place is not a defect of the output',
      )
      .optional(),
    content: z
      .object({
        fillerPhrases: z.array(z.string()).describe('replaces the default list').optional(),
        extraFillerPhrases: z.array(z.string()).optional(),
        placeholderPhrases: z.array(z.string()).optional(),
        blockedDomains: z.array(z.string()).describe('added to the defaults (example.com, *.test, ...)').optional(),
        hollowRatio: z.number().min(0).max(1).optional(),
      })
      .strict()
      .optional(),
    tolerance: z
      .object({
        sizePt: z.number().nonnegative(),
        positionIn: z.number().nonnegative(),
        overlap: z.number().min(0).max(1),
      })
      .partial()
      .strict()
      .optional(),
    pptx: PptxRules.optional(),
    xlsx: XlsxRules.optional(),
    docx: DocxRules.optional(),
  })
  .strict();
export type Rules = z.infer<typeof Rules>;

/** Parses rules from data already read; `source` names it in errors. */
export function parseRules(data: unknown, source: string): Rules {
  const parsed = Rules.safeParse(data);
  if (!parsed.success) {
    throw new AppError(
      'bad_config',
      `${source} does not match the rules format: ${describeZodError(parsed.error)}. Fix it, or create one with \`deputy compare --learn good-output --out rules.json\`.`,
    );
  }
  return parsed.data;
}

export function loadRules(path: string): Rules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AppError(
      'not_found',
      `Cannot read the rules file ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the path.`,
      { cause: error },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'bad_config',
      `The rules file ${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  return parseRules(data, `The rules file ${path}`);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Field by field: the user's value wins; objects merge, arrays and values replace. */
export function mergeRules<T>(learned: T, user: unknown): T {
  if (!isPlainObject(learned) || !isPlainObject(user)) return (user === undefined ? learned : user) as T;
  const merged: Record<string, unknown> = { ...learned };
  for (const [key, value] of Object.entries(user))
    merged[key] = value === undefined ? learned[key] : mergeRules(learned[key], value);
  return merged as T;
}

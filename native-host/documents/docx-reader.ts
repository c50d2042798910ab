import { AppError } from '../../shared/errors';
import type { Section, TextRun, TextStyle, WordDocument, WordParagraph, WordTable } from './document-model';
import { readTheme } from './drawing-color';
import type { OfficePackage } from './open-package';
import { PackageParts } from './package-parts';
import { attr, child, children, path, type XmlNode } from './xml-tree';

interface StyleDef {
  name: string;
  basedOn?: string;
  rPr?: XmlNode;
  outline?: number;
}

interface DocxContext {
  styles: Map<string, StyleDef>;
  defaults?: XmlNode;
  fonts: { major?: string; minor?: string };
  links: (id: string) => string | undefined;
  defaultParagraphStyle?: string;
}

const onOff = (node: XmlNode | undefined): boolean | undefined =>
  node === undefined ? undefined : !['0', 'false', 'off'].includes(attr(node, 'w:val') ?? 'true');

function styleChain(id: string | undefined, context: DocxContext): StyleDef[] {
  const chain: StyleDef[] = [];
  const seen = new Set<string>();
  for (let current = id; current && !seen.has(current);) {
    seen.add(current);
    const style = context.styles.get(current);
    if (!style) break;
    chain.push(style);
    current = style.basedOn;
  }
  return chain;
}

/** Run formatting in Word's order: the run, its character style, the paragraph style chain, the document defaults. */
function runStyle(rPr: XmlNode | undefined, paragraphStyle: string | undefined, context: DocxContext): TextStyle {
  const sources = [
    rPr,
    ...styleChain(attr(child(rPr, 'w:rStyle'), 'w:val'), context).map((style) => style.rPr),
    ...styleChain(paragraphStyle, context).map((style) => style.rPr),
    context.defaults,
  ];
  const pick = <T>(read: (node: XmlNode) => T | undefined): T | undefined => {
    for (const source of sources) {
      if (!source) continue;
      const value = read(source);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const halfPoints = pick((node) => attr(child(node, 'w:sz'), 'w:val'));
  const color = pick((node) => attr(child(node, 'w:color'), 'w:val'));
  const font = pick((node) => {
    const fonts = child(node, 'w:rFonts');
    const theme = attr(fonts, 'w:asciiTheme');
    if (theme) return theme.startsWith('major') ? context.fonts.major : context.fonts.minor;
    return attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi');
  });
  const bold = pick((node) => onOff(child(node, 'w:b')));
  const italic = pick((node) => onOff(child(node, 'w:i')));
  return {
    size: halfPoints === undefined ? 10 : Number(halfPoints) / 2,
    ...(color && /^[0-9a-fA-F]{6}$/.test(color) ? { color: color.toUpperCase() } : { color: '000000' }),
    ...((font ?? context.fonts.minor) ? { font: font ?? context.fonts.minor } : {}),
    ...(bold === undefined ? {} : { bold }),
    ...(italic === undefined ? {} : { italic }),
  };
}

function collectRuns(
  node: XmlNode,
  styleId: string | undefined,
  context: DocxContext,
  runs: TextRun[],
  link?: string,
): void {
  for (const item of node.children) {
    if (item.name === 'w:r') {
      let text = '';
      for (const part of item.children) {
        if (part.name === 'w:t') text += part.text;
        else if (part.name === 'w:tab') text += '\t';
        else if (part.name === 'w:br' || part.name === 'w:cr') text += '\n';
        else if (part.name === 'w:instrText') {
          const url = /HYPERLINK\s+"([^"]+)"/.exec(part.text)?.[1];
          if (url) runs.push({ text: '', style: {}, link: url });
        }
      }
      runs.push({ text, style: runStyle(child(item, 'w:rPr'), styleId, context), ...(link ? { link } : {}) });
    } else if (item.name === 'w:hyperlink') {
      const target = context.links(attr(item, 'r:id') ?? '');
      collectRuns(item, styleId, context, runs, target ?? link);
    } else if (item.name === 'w:fldSimple') {
      const url = /HYPERLINK\s+"([^"]+)"/.exec(attr(item, 'w:instr') ?? '')?.[1];
      collectRuns(item, styleId, context, runs, url ?? link);
    } else if (item.name !== 'w:del' && item.name !== 'w:pPr' && item.children.length > 0)
      collectRuns(item, styleId, context, runs, link);
  }
}

function readParagraph(p: XmlNode, context: DocxContext): WordParagraph {
  const pPr = child(p, 'w:pPr');
  const styleId = attr(child(pPr, 'w:pStyle'), 'w:val') ?? context.defaultParagraphStyle;
  const runs: TextRun[] = [];
  collectRuns(p, styleId, context, runs);
  const chain = styleChain(styleId, context);
  const styleName = chain[0]?.name ?? styleId ?? 'Normal';
  const ownOutline = attr(child(pPr, 'w:outlineLvl'), 'w:val');
  const outline =
    ownOutline !== undefined ? Number(ownOutline) : chain.find((style) => style.outline !== undefined)?.outline;
  const named = /^heading (\d)$/i.exec(styleName)?.[1];
  const headingLevel = /^title$/i.test(styleName)
    ? 0
    : named
      ? Number(named)
      : outline !== undefined && outline < 9
        ? outline + 1
        : undefined;
  const text = runs.map((run) => run.text).join('');
  let longest: TextRun | undefined;
  for (const run of runs) if (run.text.trim() && (!longest || run.text.length > longest.text.length)) longest = run;
  return {
    text,
    styleName,
    ...(headingLevel === undefined ? {} : { headingLevel }),
    style: longest?.style ?? runStyle(path(pPr, 'w:rPr'), styleId, context),
    runs,
    links: [...new Set(runs.map((run) => run.link).filter((link): link is string => link !== undefined))],
  };
}

function readTable(tbl: XmlNode, context: DocxContext): WordTable {
  return {
    rows: children(tbl, 'w:tr').map((tr) =>
      children(tr, 'w:tc').map((tc) =>
        children(tc, 'w:p')
          .map((p) => readParagraph(p, context).text)
          .join('\n'),
      ),
    ),
  };
}

/** Reads a .docx into its cover (before the first heading) and numbered sections with their paragraphs and tables. */
export async function readDocx(pkg: OfficePackage): Promise<WordDocument> {
  const parts = new PackageParts(pkg);
  const stylesRoot = child(await parts.xml('word/styles.xml'), 'w:styles');
  const styles = new Map<string, StyleDef>();
  let defaultParagraphStyle: string | undefined;
  for (const style of children(stylesRoot, 'w:style')) {
    const id = attr(style, 'w:styleId');
    if (!id) continue;
    const basedOn = attr(child(style, 'w:basedOn'), 'w:val');
    const outline = attr(path(style, 'w:pPr', 'w:outlineLvl'), 'w:val');
    const rPr = child(style, 'w:rPr');
    styles.set(id, {
      name: attr(child(style, 'w:name'), 'w:val') ?? id,
      ...(basedOn ? { basedOn } : {}),
      ...(rPr ? { rPr } : {}),
      ...(outline === undefined ? {} : { outline: Number(outline) }),
    });
    if (attr(style, 'w:type') === 'paragraph' && ['1', 'true', 'on'].includes(attr(style, 'w:default') ?? ''))
      defaultParagraphStyle = id;
  }
  const themeRel = await parts.relOfType('word/document.xml', 'theme');
  const theme = readTheme(themeRel ? await parts.xml(themeRel.target) : undefined);
  const rels = await parts.rels('word/document.xml');
  const defaults = path(stylesRoot, 'w:docDefaults', 'w:rPrDefault', 'w:rPr');
  const context: DocxContext = {
    styles,
    ...(defaults ? { defaults } : {}),
    fonts: { ...(theme.major ? { major: theme.major } : {}), ...(theme.minor ? { minor: theme.minor } : {}) },
    links: (id) => rels.get(id)?.target,
    ...(defaultParagraphStyle ? { defaultParagraphStyle } : {}),
  };
  const body = path(await parts.xml('word/document.xml'), 'w:document', 'w:body');
  if (!body)
    throw new AppError(
      'bad_request',
      `${pkg.path} is corrupt: word/document.xml holds no document body. Re-create the file.`,
    );
  const document: WordDocument = { kind: 'docx', path: pkg.path, cover: [], coverTables: [], sections: [] };
  const counters: number[] = [];
  const visit = (node: XmlNode): void => {
    for (const item of node.children) {
      if (item.name === 'w:sdt') visit(child(item, 'w:sdtContent') ?? item);
      else if (item.name === 'w:tbl')
        (document.sections.at(-1)?.tables ?? document.coverTables).push(readTable(item, context));
      else if (item.name === 'w:p') {
        const paragraph = readParagraph(item, context);
        const level = paragraph.headingLevel;
        if (level !== undefined && level >= 1 && paragraph.text.trim() !== '') {
          counters.length = level;
          for (let index = 0; index < level; index += 1) counters[index] ??= 0;
          counters[level - 1] = (counters[level - 1] ?? 0) + 1;
          const written = /^\s*(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(paragraph.text);
          const section: Section = {
            number: written?.[1] ?? counters.map((count) => Math.max(1, count)).join('.'),
            title: (written?.[2] ?? paragraph.text).trim(),
            level,
            heading: paragraph,
            paragraphs: [],
            tables: [],
          };
          document.sections.push(section);
        } else (document.sections.at(-1)?.paragraphs ?? document.cover).push(paragraph);
      }
    }
  };
  visit(body);
  return document;
}

import type { Paragraph, TextRun, TextStyle } from './document-model';
import { resolveColor, type ColorContext } from './drawing-color';
import { attr, child, numberAttr, type XmlNode } from './xml-tree';

/**
 * Where a shape's text gets the formatting it does not set itself, most specific first: the shape's own list
 * style, then its layout placeholder's, the master placeholder's, the master's title/body/other text style, and the
 * presentation's default text style. A property missing at one level is taken from the next, so a title whose size
 * is set only on the master reads as that size.
 */
export interface TextStyleChain {
  lists: XmlNode[];
  /** How many of `lists` belong to the shape itself: the shape style's font colour applies after them. */
  ownLists: number;
  fontRefColor?: string;
  colors: ColorContext;
  fonts: { major?: string; minor?: string };
  /** normAutofit's fontScale and lnSpcReduction, as fractions. */
  fontScale: number;
  lineReduction: number;
  links: (id: string) => string | undefined;
}

const DEFAULT_SIZE_PT = 18;
const truthy = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : value === '1' || value === 'true';

function levelNode(list: XmlNode, level: number): XmlNode | undefined {
  return child(list, `a:lvl${level + 1}pPr`) ?? (level === 0 ? child(list, 'a:defPPr') : undefined);
}

function firstDefined<T>(sources: Array<XmlNode | undefined>, read: (node: XmlNode) => T | undefined): T | undefined {
  for (const source of sources) {
    if (!source) continue;
    const value = read(source);
    if (value !== undefined) return value;
  }
  return undefined;
}

function fontName(node: XmlNode, fonts: TextStyleChain['fonts']): string | undefined {
  const typeface = attr(child(node, 'a:latin'), 'typeface');
  if (!typeface) return undefined;
  if (typeface.startsWith('+mj')) return fonts.major;
  if (typeface.startsWith('+mn')) return fonts.minor;
  return typeface;
}

/** Resolves one run's style from its own properties and the chain at its paragraph's level. */
function runStyle(rPr: XmlNode | undefined, levels: Array<XmlNode | undefined>, chain: TextStyleChain): TextStyle {
  const defaults = levels.map((level) => child(level, 'a:defRPr'));
  // levels[0] is the paragraph's own pPr; the next `ownLists` entries are the shape's list styles.
  const own = [rPr, ...defaults.slice(0, 1 + chain.ownLists)];
  const inherited = defaults.slice(1 + chain.ownLists);
  const sources = [...own, ...inherited];
  const size = firstDefined(sources, (node) => numberAttr(node, 'sz')) ?? DEFAULT_SIZE_PT * 100;
  const colorOf = (node: XmlNode): string | undefined => resolveColor(child(node, 'a:solidFill'), chain.colors);
  const color =
    firstDefined(own, colorOf) ??
    chain.fontRefColor ??
    firstDefined(inherited, colorOf) ??
    chain.colors.scheme[chain.colors.map.tx1 ?? 'dk1'];
  const font = firstDefined(sources, (node) => fontName(node, chain.fonts)) ?? chain.fonts.minor;
  const bold = firstDefined(sources, (node) => truthy(attr(node, 'b')));
  const italic = firstDefined(sources, (node) => truthy(attr(node, 'i')));
  return {
    size: Math.round((size / 100) * chain.fontScale * 10) / 10,
    ...(color ? { color } : {}),
    ...(font ? { font } : {}),
    ...(bold === undefined ? {} : { bold }),
    ...(italic === undefined ? {} : { italic }),
  };
}

function spacingPt(node: XmlNode | undefined, sizePt: number): number | undefined {
  if (!node) return undefined;
  const points = numberAttr(child(node, 'a:spcPts'), 'val');
  if (points !== undefined) return points / 100;
  const percent = numberAttr(child(node, 'a:spcPct'), 'val');
  return percent === undefined ? undefined : (percent / 100000) * sizePt * 1.2;
}

function dominantStyle(runs: TextRun[], fallback: TextStyle): TextStyle {
  let best: TextRun | undefined;
  for (const run of runs) if (run.text.trim() && (!best || run.text.length > best.text.length)) best = run;
  return best?.style ?? fallback;
}

/** Reads every paragraph of a `p:txBody` (or a table cell's `a:txBody`) with its resolved formatting. */
export function readParagraphs(txBody: XmlNode | undefined, chain: TextStyleChain): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const p of txBody?.children ?? []) {
    if (p.name !== 'a:p') continue;
    const pPr = child(p, 'a:pPr');
    const level = Math.min(8, numberAttr(pPr, 'lvl') ?? 0);
    const levels = [pPr, ...chain.lists.map((list) => levelNode(list, level))];
    const runs: TextRun[] = [];
    for (const item of p.children) {
      if (item.name === 'a:r' || item.name === 'a:fld') {
        const rPr = child(item, 'a:rPr');
        const linkId = attr(child(rPr, 'a:hlinkClick'), 'r:id');
        const link = linkId ? chain.links(linkId) : undefined;
        runs.push({
          text: child(item, 'a:t')?.text ?? '',
          style: runStyle(rPr, levels, chain),
          ...(link ? { link } : {}),
        });
      } else if (item.name === 'a:br') {
        runs.push({ text: '\n', style: runStyle(child(item, 'a:rPr'), levels, chain) });
      }
    }
    const endStyle = runStyle(child(p, 'a:endParaRPr'), levels, chain);
    const style = dominantStyle(runs, endStyle);
    const sizePt = style.size ?? DEFAULT_SIZE_PT;
    const lnSpc = firstDefined(levels, (node) => child(node, 'a:lnSpc'));
    const fixed = numberAttr(child(lnSpc, 'a:spcPts'), 'val');
    const multiple = ((numberAttr(child(lnSpc, 'a:spcPct'), 'val') ?? 100000) / 100000) * (1 - chain.lineReduction);
    const marL = firstDefined(levels, (node) => numberAttr(node, 'marL')) ?? 0;
    const indent = firstDefined(levels, (node) => numberAttr(node, 'indent')) ?? 0;
    paragraphs.push({
      text: runs.map((run) => run.text).join(''),
      level,
      runs,
      style,
      lineSpacing: fixed === undefined ? { multiple } : { points: fixed / 100 },
      spaceBeforePt:
        spacingPt(
          firstDefined(levels, (node) => child(node, 'a:spcBef')),
          sizePt,
        ) ?? 0,
      spaceAfterPt:
        spacingPt(
          firstDefined(levels, (node) => child(node, 'a:spcAft')),
          sizePt,
        ) ?? 0,
      indentEmu: Math.max(0, marL + Math.min(0, indent)),
      align: firstDefined(levels, (node) => attr(node, 'algn')) ?? 'l',
    });
  }
  return paragraphs;
}

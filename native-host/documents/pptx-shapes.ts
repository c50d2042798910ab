import type { Box, Paragraph, Shape, ShapeKind } from './document-model';
import { resolveColor, type ColorContext } from './drawing-color';
import { readParagraphs, type TextStyleChain } from './pptx-text';
import { attr, child, children, descendants, numberAttr, path, type XmlNode } from './xml-tree';

/** A placeholder on a layout or master: where a slide's placeholder inherits position, body settings and list style. */
export interface PlaceholderInfo {
  type: string;
  idx?: string;
  box?: Box;
  bodyPr?: XmlNode;
  lstStyle?: XmlNode;
}

/** What reading one shape tree needs: the placeholders it may inherit from and the text chain's fixed parts. */
export interface ShapeContext {
  colors: ColorContext;
  fonts: TextStyleChain['fonts'];
  /** Placeholder lookup: the layout's then the master's match for a slide placeholder, most specific first. */
  inheritFrom: (type: string, idx: string | undefined) => PlaceholderInfo[];
  /** The master text style and presentation default that end the chain for this placeholder type (or a text box). */
  tailLists: (type: string | undefined) => XmlNode[];
  links: (id: string) => string | undefined;
  inherited: boolean;
}

type Transform = (box: Box) => Box;
const identity: Transform = (box) => box;

export function readBox(xfrm: XmlNode | undefined): Box | undefined {
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  if (!off || !ext) return undefined;
  return {
    x: numberAttr(off, 'x') ?? 0,
    y: numberAttr(off, 'y') ?? 0,
    w: numberAttr(ext, 'cx') ?? 0,
    h: numberAttr(ext, 'cy') ?? 0,
  };
}

/** Group shapes place children in their own coordinate space (chOff/chExt) mapped onto the group's box. */
function groupTransform(xfrm: XmlNode | undefined, outer: Transform): Transform {
  const box = readBox(xfrm);
  const chOff = child(xfrm, 'a:chOff');
  const chExt = child(xfrm, 'a:chExt');
  if (!box || !chOff || !chExt) return outer;
  const cx = numberAttr(chOff, 'x') ?? 0;
  const cy = numberAttr(chOff, 'y') ?? 0;
  const sx = (numberAttr(chExt, 'cx') ?? 0) > 0 ? box.w / numberAttr(chExt, 'cx')! : 1;
  const sy = (numberAttr(chExt, 'cy') ?? 0) > 0 ? box.h / numberAttr(chExt, 'cy')! : 1;
  return (inner) =>
    outer({ x: box.x + (inner.x - cx) * sx, y: box.y + (inner.y - cy) * sy, w: inner.w * sx, h: inner.h * sy });
}

export function readPlaceholder(node: XmlNode): { type: string; idx?: string } | undefined {
  const ph = descendants(
    child(node, 'p:nvSpPr') ?? child(node, 'p:nvPicPr') ?? child(node, 'p:nvGraphicFramePr') ?? node,
    'p:ph',
  )[0];
  if (!ph) return undefined;
  const idx = attr(ph, 'idx');
  return { type: attr(ph, 'type') ?? 'obj', ...(idx === undefined ? {} : { idx }) };
}

const LINE_GEOMETRIES = new Set(['line', 'straightConnector1', 'bentConnector2', 'bentConnector3', 'curvedConnector3']);

function bodySettings(
  bodyPrs: Array<XmlNode | undefined>,
): Pick<Shape, 'autofit' | 'wrap' | 'insets'> & { fontScale: number; lineReduction: number } {
  const pick = (name: string): number | undefined => {
    for (const bodyPr of bodyPrs) {
      const value = numberAttr(bodyPr, name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const fit = bodyPrs
    .map((bodyPr) => bodyPr?.children.find((item) => /^a:(spAutoFit|normAutofit|noAutofit)$/.test(item.name)))
    .find(Boolean);
  const wrapValue = bodyPrs.map((bodyPr) => attr(bodyPr, 'wrap')).find((value) => value !== undefined);
  return {
    autofit: fit?.name === 'a:spAutoFit' ? 'shape' : fit?.name === 'a:normAutofit' ? 'shrink' : 'none',
    wrap: wrapValue !== 'none',
    insets: { l: pick('lIns') ?? 91440, t: pick('tIns') ?? 45720, r: pick('rIns') ?? 91440, b: pick('bIns') ?? 45720 },
    fontScale: fit?.name === 'a:normAutofit' ? (numberAttr(fit, 'fontScale') ?? 100000) / 100000 : 1,
    lineReduction: fit?.name === 'a:normAutofit' ? (numberAttr(fit, 'lnSpcReduction') ?? 0) / 100000 : 0,
  };
}

function chainFor(
  context: ShapeContext,
  own: XmlNode | undefined,
  inheritedFrom: PlaceholderInfo[],
  type: string | undefined,
  style: XmlNode | undefined,
  scale: { fontScale: number; lineReduction: number },
): TextStyleChain {
  const lists = [own, ...inheritedFrom.map((info) => info.lstStyle), ...context.tailLists(type)].filter(
    (item): item is XmlNode => item !== undefined,
  );
  const fontRefColor = resolveColor(
    child(path(style, 'a:fontRef'), 'a:schemeClr') ?? path(style, 'a:fontRef')?.children[0],
    context.colors,
  );
  return {
    lists,
    ownLists: own ? 1 : 0,
    colors: context.colors,
    fonts: context.fonts,
    ...scale,
    links: context.links,
    ...(fontRefColor ? { fontRefColor } : {}),
  };
}

function tableText(tbl: XmlNode, chain: TextStyleChain, links: string[]): string[][] {
  return children(tbl, 'a:tr').map((tr) =>
    children(tr, 'a:tc').map((tc) => {
      const paragraphs = readParagraphs(child(tc, 'a:txBody'), chain);
      for (const paragraph of paragraphs) for (const run of paragraph.runs) if (run.link) links.push(run.link);
      return paragraphs.map((paragraph) => paragraph.text).join('\n');
    }),
  );
}

function readOne(node: XmlNode, context: ShapeContext, transform: Transform): Shape | undefined {
  const nv =
    child(node, 'p:nvSpPr') ??
    child(node, 'p:nvCxnSpPr') ??
    child(node, 'p:nvPicPr') ??
    child(node, 'p:nvGraphicFramePr');
  const cNvPr = child(nv, 'p:cNvPr');
  const placeholder = readPlaceholder(node);
  const inheritedFrom = placeholder ? context.inheritFrom(placeholder.type, placeholder.idx) : [];
  const spPr = child(node, 'p:spPr');
  const ownBox = readBox(child(spPr, 'a:xfrm') ?? child(node, 'p:xfrm'));
  const baseBox = ownBox ?? inheritedFrom.find((info) => info.box)?.box;
  const txBody = child(node, 'p:txBody');
  const settings = bodySettings([child(txBody, 'a:bodyPr'), ...inheritedFrom.map((info) => info.bodyPr)]);
  const chain = chainFor(
    context,
    child(txBody, 'a:lstStyle'),
    inheritedFrom,
    placeholder?.type,
    child(node, 'p:style'),
    settings,
  );
  const links: string[] = [];
  const shapeLink = attr(child(cNvPr, 'a:hlinkClick'), 'r:id');
  if (shapeLink && context.links(shapeLink)) links.push(context.links(shapeLink)!);
  let paragraphs: Paragraph[] = [];
  let kind: ShapeKind;
  let table: string[][] | undefined;
  if (node.name === 'p:pic') kind = 'picture';
  else if (node.name === 'p:graphicFrame') {
    const data = path(node, 'a:graphic', 'a:graphicData');
    const tbl = child(data, 'a:tbl');
    if (tbl) {
      kind = 'table';
      table = tableText(tbl, chainFor(context, undefined, [], undefined, undefined, settings), links);
    } else kind = (attr(data, 'uri') ?? '').includes('chart') ? 'chart' : 'graphic';
  } else {
    paragraphs = readParagraphs(txBody, chain);
    const hasText = paragraphs.some((paragraph) => paragraph.text.trim() !== '');
    const geometry = attr(child(spPr, 'a:prstGeom'), 'prst');
    if (node.name === 'p:cxnSp' || (!hasText && geometry !== undefined && LINE_GEOMETRIES.has(geometry))) kind = 'line';
    else kind = hasText || placeholder ? 'text' : 'graphic';
  }
  for (const paragraph of paragraphs) for (const run of paragraph.runs) if (run.link) links.push(run.link);
  const lineColor =
    resolveColor(child(child(spPr, 'a:ln'), 'a:solidFill'), context.colors) ??
    resolveColor(path(node, 'p:style', 'a:lnRef')?.children[0], context.colors);
  const fillColor = resolveColor(child(spPr, 'a:solidFill'), context.colors);
  const name = attr(cNvPr, 'name') ?? '';
  return {
    id: attr(cNvPr, 'id') ?? '',
    name,
    kind,
    role: 'body',
    ...(placeholder ? { placeholder } : {}),
    key: placeholder
      ? `ph:${placeholder.type}${placeholder.idx === undefined ? '' : `:${placeholder.idx}`}`
      : `name:${name}`,
    ...(baseBox ? { box: transform(baseBox) } : {}),
    paragraphs,
    text: paragraphs.map((paragraph) => paragraph.text).join('\n'),
    ...(table ? { table } : {}),
    links,
    ...(lineColor && kind === 'line' ? { lineColor } : {}),
    ...(fillColor ? { fillColor } : {}),
    inherited: context.inherited,
    autofit: settings.autofit,
    wrap: settings.wrap,
    insets: settings.insets,
  };
}

/** Reads a `p:spTree` (or a group inside one) into flat shapes, group transforms applied. */
export function readShapeTree(
  tree: XmlNode | undefined,
  context: ShapeContext,
  transform: Transform = identity,
  shapes: Shape[] = [],
): Shape[] {
  for (const node of tree?.children ?? []) {
    if (node.name === 'p:grpSp')
      readShapeTree(node, context, groupTransform(path(node, 'p:grpSpPr', 'a:xfrm'), transform), shapes);
    else if (node.name === 'mc:AlternateContent') {
      const branch = child(node, 'mc:Fallback') ?? child(node, 'mc:Choice');
      readShapeTree(branch, context, transform, shapes);
    } else if (['p:sp', 'p:cxnSp', 'p:pic', 'p:graphicFrame'].includes(node.name)) {
      const shape = readOne(node, context, transform);
      if (shape) shapes.push(shape);
    }
  }
  return shapes;
}

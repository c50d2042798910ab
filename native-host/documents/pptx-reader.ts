import { AppError } from '../../shared/errors';
import type { Deck, Shape, Slide } from './document-model';
import { readColorMap, readTheme, type ColorContext } from './drawing-color';
import type { OfficePackage } from './open-package';
import { PackageParts } from './package-parts';
import { assignRoles } from './pptx-roles';
import { readBox, readPlaceholder, readShapeTree, type PlaceholderInfo, type ShapeContext } from './pptx-shapes';
import { attr, child, children, numberAttr, path, type XmlNode } from './xml-tree';

interface MasterInfo {
  placeholders: PlaceholderInfo[];
  styles: { title?: XmlNode; body?: XmlNode; other?: XmlNode };
  colorMap: Record<string, string>;
  scheme: Record<string, string>;
  fonts: { major?: string; minor?: string };
  tree?: XmlNode;
  part: string;
}

interface LayoutInfo {
  name: string;
  placeholders: PlaceholderInfo[];
  master: MasterInfo;
  colorMap?: Record<string, string>;
  showMasterShapes: boolean;
  tree?: XmlNode;
  part: string;
}

function placeholdersOf(tree: XmlNode | undefined): PlaceholderInfo[] {
  const found: PlaceholderInfo[] = [];
  for (const node of tree?.children ?? []) {
    const placeholder = readPlaceholder(node);
    if (!placeholder) continue;
    const box = readBox(path(node, 'p:spPr', 'a:xfrm'));
    const bodyPr = path(node, 'p:txBody', 'a:bodyPr');
    const lstStyle = path(node, 'p:txBody', 'a:lstStyle');
    found.push({
      ...placeholder,
      ...(box ? { box } : {}),
      ...(bodyPr ? { bodyPr } : {}),
      ...(lstStyle ? { lstStyle } : {}),
    });
  }
  return found;
}

/** A master's placeholders are matched by kind: titles to its title, every content kind to its body. */
const masterType = (type: string): string =>
  type === 'ctrTitle' || type === 'title' ? 'title' : ['dt', 'ftr', 'sldNum', 'hdr'].includes(type) ? type : 'body';

/** Reads a .pptx into slides of shapes whose text formatting is fully resolved through the inheritance chain. */
export async function readDeck(pkg: OfficePackage): Promise<Deck> {
  const parts = new PackageParts(pkg);
  const presentation = child(await parts.xml('ppt/presentation.xml'), 'p:presentation');
  if (!presentation)
    throw new AppError(
      'bad_request',
      `${pkg.path} is corrupt: ppt/presentation.xml holds no presentation. Re-create the file.`,
    );
  const size = child(presentation, 'p:sldSz');
  const width = numberAttr(size, 'cx') ?? 12192000;
  const height = numberAttr(size, 'cy') ?? 6858000;
  const defaultTextStyle = child(presentation, 'p:defaultTextStyle');
  const presentationRels = await parts.rels('ppt/presentation.xml');
  const masters = new Map<string, Promise<MasterInfo>>();
  const layouts = new Map<string, Promise<LayoutInfo>>();

  const loadMaster = async (part: string): Promise<MasterInfo> => {
    const root = child(await parts.xml(part), 'p:sldMaster');
    const themeRel = await parts.relOfType(part, 'theme');
    const theme = readTheme(themeRel ? await parts.xml(themeRel.target) : undefined);
    const styles = child(root, 'p:txStyles');
    const tree = path(root, 'p:cSld', 'p:spTree');
    return {
      placeholders: placeholdersOf(tree),
      styles: {
        title: child(styles, 'p:titleStyle'),
        body: child(styles, 'p:bodyStyle'),
        other: child(styles, 'p:otherStyle'),
      },
      colorMap: readColorMap(child(root, 'p:clrMap')),
      scheme: theme.scheme,
      fonts: { ...(theme.major ? { major: theme.major } : {}), ...(theme.minor ? { minor: theme.minor } : {}) },
      ...(tree ? { tree } : {}),
      part,
    };
  };
  const loadLayout = async (part: string): Promise<LayoutInfo> => {
    const root = child(await parts.xml(part), 'p:sldLayout');
    const masterRel = await parts.relOfType(part, 'slideMaster');
    if (!masterRel) throw new Error(`${part} has no slide master`);
    let master = masters.get(masterRel.target);
    if (!master) masters.set(masterRel.target, (master = loadMaster(masterRel.target)));
    const override = path(root, 'p:clrMapOvr', 'a:overrideClrMapping');
    const tree = path(root, 'p:cSld', 'p:spTree');
    return {
      name: attr(child(root, 'p:cSld'), 'name') ?? part.replace(/^.*\//, ''),
      placeholders: placeholdersOf(tree),
      master: await master,
      ...(override ? { colorMap: readColorMap(override) } : {}),
      showMasterShapes: attr(root, 'showMasterSp') !== '0',
      ...(tree ? { tree } : {}),
      part,
    };
  };

  const slides: Slide[] = [];
  const slideIds = children(child(presentation, 'p:sldIdLst'), 'p:sldId');
  for (const [index, slideId] of slideIds.entries()) {
    const rel = presentationRels.get(attr(slideId, 'r:id') ?? '');
    if (!rel) continue;
    const root = child(await parts.xml(rel.target), 'p:sld');
    if (!root) continue;
    const layoutRel = await parts.relOfType(rel.target, 'slideLayout');
    if (!layoutRel) continue;
    let layoutPending = layouts.get(layoutRel.target);
    if (!layoutPending) layouts.set(layoutRel.target, (layoutPending = loadLayout(layoutRel.target)));
    const layout = await layoutPending;
    const master = layout.master;
    const slideOverride = path(root, 'p:clrMapOvr', 'a:overrideClrMapping');
    const colors: ColorContext = {
      scheme: master.scheme,
      map: { ...master.colorMap, ...layout.colorMap, ...(slideOverride ? readColorMap(slideOverride) : {}) },
    };
    const tailLists = (type: string | undefined): XmlNode[] => {
      const style =
        type === undefined
          ? undefined
          : masterType(type) === 'title'
            ? master.styles.title
            : masterType(type) === 'body'
              ? master.styles.body
              : master.styles.other;
      return [style, defaultTextStyle, type === undefined ? master.styles.other : undefined].filter(
        (item): item is XmlNode => item !== undefined,
      );
    };
    const inheritFrom = (type: string, idx: string | undefined): PlaceholderInfo[] => {
      const inLayout =
        (idx !== undefined ? layout.placeholders.find((item) => item.idx === idx) : undefined) ??
        layout.placeholders.find((item) => item.type === type);
      const inMaster = master.placeholders.find((item) => masterType(item.type) === masterType(inLayout?.type ?? type));
      return [inLayout, inMaster].filter((item): item is PlaceholderInfo => item !== undefined);
    };
    const slideLinks = await parts.rels(rel.target);
    const context = (links: Map<string, { target: string }>, inherited: boolean): ShapeContext => ({
      colors,
      fonts: master.fonts,
      inheritFrom,
      tailLists,
      links: (id) => links.get(id)?.target,
      inherited,
    });
    const shapes: Shape[] = [];
    // Decorations drawn on the master and the layout (dividers, logos) are part of what the slide shows.
    const notPlaceholder = (shape: Shape): boolean => shape.placeholder === undefined;
    if (layout.showMasterShapes && master.tree)
      shapes.push(...readShapeTree(master.tree, context(await parts.rels(master.part), true)).filter(notPlaceholder));
    if (layout.tree)
      shapes.push(...readShapeTree(layout.tree, context(await parts.rels(layout.part), true)).filter(notPlaceholder));
    shapes.push(...readShapeTree(path(root, 'p:cSld', 'p:spTree'), context(slideLinks, false)));
    assignRoles(shapes, height);
    slides.push({ number: index + 1, layout: layout.name, hidden: attr(root, 'show') === '0', shapes });
  }
  return { kind: 'pptx', path: pkg.path, width, height, slides };
}

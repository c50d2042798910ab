import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One XML element with its attributes (prefixed names kept as written, e.g. `r:id`), children in order and direct text. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

type OrderedItem = Record<string, unknown>;

// Order matters in Office XML (a run, a line break, another run), so the parser keeps it; values stay strings.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

function convert(items: OrderedItem[], parent: XmlNode): void {
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') {
        parent.text += String(value);
        continue;
      }
      if (key.startsWith('?')) continue;
      const node: XmlNode = {
        name: key,
        attrs: (item[':@'] as Record<string, string> | undefined) ?? {},
        children: [],
        text: '',
      };
      convert(value as OrderedItem[], node);
      parent.children.push(node);
    }
  }
}

/**
 * Parses a document into a tree whose root holds the top element(s). The parser itself is lenient (an unclosed tag
 * parses), so the text is validated first: a truncated or damaged part throws instead of reading as half a document.
 */
export function parseXml(xml: string): XmlNode {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line})`);
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  convert(parser.parse(xml) as OrderedItem[], root);
  return root;
}

/** Parses without building the tree: the floor the benchmark compares the readers with. */
export function parseXmlRaw(xml: string): unknown {
  return parser.parse(xml);
}

export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((item) => item.name === name);

export const children = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node?.children.filter((item) => item.name === name) ?? [];

/** Follows a chain of first children: `path(sp, 'p:spPr', 'a:xfrm', 'a:off')`. */
export function path(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  let current = node;
  for (const name of names) current = child(current, name);
  return current;
}

export const attr = (node: XmlNode | undefined, name: string): string | undefined => node?.attrs[name];

export function numberAttr(node: XmlNode | undefined, name: string): number | undefined {
  const value = node?.attrs[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Every element below `node` with this name, depth first, in document order. */
export function descendants(node: XmlNode, name: string, found: XmlNode[] = []): XmlNode[] {
  for (const item of node.children) {
    if (item.name === name) found.push(item);
    descendants(item, name, found);
  }
  return found;
}

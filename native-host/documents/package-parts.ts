import { posix } from 'node:path';
import { AppError } from '../../shared/errors';
import type { OfficePackage } from './open-package';
import { attr, parseXml, type XmlNode } from './xml-tree';

export interface Relationship {
  id: string;
  type: string;
  /** The absolute part name inside the package (no leading slash), or the URL of an external target. */
  target: string;
  external: boolean;
}

/** Reads and parses the package's XML parts once each; a part that is not well-formed is a clear error. */
export class PackageParts {
  private readonly cache = new Map<string, Promise<XmlNode | undefined>>();

  constructor(readonly pkg: OfficePackage) {}

  xml(part: string): Promise<XmlNode | undefined> {
    let pending = this.cache.get(part);
    if (!pending) {
      pending = this.load(part);
      this.cache.set(part, pending);
    }
    return pending;
  }

  private async load(part: string): Promise<XmlNode | undefined> {
    const file = (await this.pkg.zip()).file(part);
    if (!file) return undefined;
    const text = await file.async('string');
    try {
      return parseXml(text);
    } catch (error) {
      throw new AppError(
        'bad_request',
        `${this.pkg.path} is corrupt: its part ${part} is not well-formed XML (${error instanceof Error ? error.message : String(error)}). Re-create the file.`,
        { cause: error },
      );
    }
  }

  /** The relationships of a part (from `dir/_rels/name.rels`), targets resolved against the part's folder. */
  async rels(part: string): Promise<Map<string, Relationship>> {
    const dir = posix.dirname(part);
    const relsPart = posix.join(dir, '_rels', `${posix.basename(part)}.rels`);
    // Some writers prefix the namespace (`ns0:Relationships`); the names are read without it.
    const root = (await this.xml(relsPart))?.children.find(
      (node) => node.name === 'Relationships' || node.name.endsWith(':Relationships'),
    );
    const map = new Map<string, Relationship>();
    for (const node of root?.children.filter(
      (item) => item.name === 'Relationship' || item.name.endsWith(':Relationship'),
    ) ?? []) {
      const id = attr(node, 'Id');
      const target = attr(node, 'Target');
      if (!id || target === undefined) continue;
      const external = attr(node, 'TargetMode') === 'External';
      const resolved = external
        ? target
        : target.startsWith('/')
          ? target.slice(1)
          : posix.normalize(posix.join(dir, target));
      map.set(id, { id, type: attr(node, 'Type') ?? '', target: resolved, external });
    }
    return map;
  }

  /** The first relationship whose type ends with this name (`slideLayout`, `theme`, ...). */
  async relOfType(part: string, typeName: string): Promise<Relationship | undefined> {
    for (const rel of (await this.rels(part)).values()) if (rel.type.endsWith(`/${typeName}`)) return rel;
    return undefined;
  }
}

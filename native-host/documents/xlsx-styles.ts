import type { TextStyle } from './document-model';
import type { XmlNode } from './xml-tree';

/** What the workbook reader needs from styles.xml: a cell style's number format, whether it shows a date, its font and fill. */
export interface XlsxStyles {
  numberFormat: (styleIndex: number) => string | undefined;
  isDate: (styleIndex: number) => boolean;
  headerStyle: (styleIndex: number) => TextStyle & { fill?: string };
}

/** The built-in number formats (ECMA-376 part 1, 18.8.30) that files refer to by id without writing them out. */
const BUILT_IN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

const local = (node: XmlNode): string => node.name.slice(node.name.indexOf(':') + 1);
const kids = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node?.children.filter((item) => local(item) === name) ?? [];
const kid = (node: XmlNode | undefined, name: string): XmlNode | undefined => kids(node, name)[0];

/** A date or time format: d, m, y, h or s outside quotes, brackets (colours, locales) and escapes. */
function showsDate(format: string): boolean {
  const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^[#0.,%E+\- ]*$/i.test(bare);
}

const rgb = (node: XmlNode | undefined): string | undefined => {
  const value = node?.attrs.rgb;
  return value && /^[0-9A-F]{8}$/i.test(value) ? value.slice(2).toUpperCase() : undefined;
};

export function readXlsxStyles(root: XmlNode | undefined): XlsxStyles {
  const sheet = root?.children.find((node) => local(node) === 'styleSheet');
  const formats = new Map<number, string>();
  for (const node of kids(kid(sheet, 'numFmts'), 'numFmt'))
    formats.set(Number(node.attrs.numFmtId), node.attrs.formatCode ?? '');
  const xfs = kids(kid(sheet, 'cellXfs'), 'xf');
  const fonts = kids(kid(sheet, 'fonts'), 'font');
  const fills = kids(kid(sheet, 'fills'), 'fill');
  const formatOf = (styleIndex: number): string | undefined => {
    const id = Number(xfs[styleIndex]?.attrs.numFmtId ?? 0);
    return formats.get(id) ?? BUILT_IN[id];
  };
  const dates = new Map<number, boolean>();
  return {
    numberFormat: formatOf,
    isDate: (styleIndex) => {
      let known = dates.get(styleIndex);
      if (known === undefined) {
        const id = Number(xfs[styleIndex]?.attrs.numFmtId ?? 0);
        const format = formatOf(styleIndex);
        known =
          (id >= 14 && id <= 22) || (id >= 45 && id <= 47) || (format !== undefined && id >= 164 && showsDate(format));
        dates.set(styleIndex, known);
      }
      return known;
    },
    headerStyle: (styleIndex) => {
      const xf = xfs[styleIndex];
      const font = fonts[Number(xf?.attrs.fontId ?? 0)];
      const size = Number(kid(font, 'sz')?.attrs.val);
      const color = rgb(kid(font, 'color'));
      const name = kid(font, 'name')?.attrs.val;
      const bold = kid(font, 'b');
      const pattern = kid(fills[Number(xf?.attrs.fillId ?? 0)], 'patternFill');
      const fill = pattern && pattern.attrs.patternType !== 'none' ? rgb(kid(pattern, 'fgColor')) : undefined;
      return {
        ...(Number.isFinite(size) && size > 0 ? { size } : {}),
        ...(color ? { color } : {}),
        ...(name ? { font: name } : {}),
        bold: bold !== undefined && bold.attrs.val !== '0' && bold.attrs.val !== 'false',
        ...(fill ? { fill } : {}),
      };
    },
  };
}

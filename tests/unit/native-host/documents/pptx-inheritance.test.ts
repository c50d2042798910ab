import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeDocument } from '../../../../native-host/documents/judge-document';
import { openPackage } from '../../../../native-host/documents/open-package';
import { readDeck } from '../../../../native-host/documents/pptx-reader';
import { buildDeck } from '../../../fixtures/documents/deck-builder';
import { tempFiles } from '../../../fixtures/documents/temp-files';

/**
 * PowerPoint style inheritance: a run without a size takes it from its shape's list style, then the layout
 * placeholder, then the master placeholder, then the master's title or body style. A deck whose title size is set only
 * on the layout (or only on the master) must read as that size, never as "missing".
 */
const files = tempFiles();
afterAll(() => files.cleanup());

type Edit = (xml: string) => string;

/** Rewrites parts of a deck built by pptxgenjs: the way to get a size that lives only on the layout or master. */
async function editDeck(deck: Buffer, edits: Record<string, Edit>): Promise<Buffer> {
  const zip = await JSZip.loadAsync(deck);
  for (const [pattern, edit] of Object.entries(edits)) {
    const names = Object.keys(zip.files).filter((name) => new RegExp(pattern).test(name));
    expect(names.length, pattern).toBeGreaterThan(0);
    for (const name of names) zip.file(name, edit(await zip.file(name)!.async('string')));
  }
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** Drops the size, colour and font of the title placeholder's runs, as PowerPoint writes a title that inherits. */
const bareTitleRuns: Edit = (xml) =>
  xml.replace(/(<p:sp>(?:(?!<\/p:sp>).)*?type="title"(?:(?!<\/p:sp>).)*?<\/p:sp>)/gs, (shape) =>
    shape
      .replace(/ sz="\d+"/g, '')
      .replace(/<a:solidFill>(?:(?!<\/a:solidFill>).)*<\/a:solidFill>/gs, '')
      .replace(/<a:(latin|ea|cs) typeface="[^"]*"[^>]*\/>/g, ''),
  );

async function titleOf(path: string): Promise<{ size?: number; color?: string; font?: string }> {
  const deck = await readDeck(await openPackage(path));
  const title = deck.slides[1]!.shapes.find((shape) => shape.role === 'title')!;
  expect(title.text).toBe('Northwind Robotics');
  return title.paragraphs[0]!.style;
}

describe('PowerPoint style inheritance', () => {
  it('a title whose runs set nothing takes size, colour and font from the layout placeholder', async () => {
    const path = files.write('layout.pptx', await editDeck(await buildDeck(), { '^ppt/slides/slide\\d+\\.xml$': bareTitleRuns }));
    const slideXml = await (await JSZip.loadAsync(await buildDeck())).file('ppt/slides/slide2.xml')!.async('string');
    expect(slideXml).toContain('sz="2800"');
    expect(await titleOf(path)).toStrictEqual({ size: 28, color: '1F3864', font: 'Georgia' });
    // Compared with the template whose runs say 28 pt explicitly, nothing is missing and nothing differs.
    const judgement = await judgeDocument(path, files.write('reference.pptx', await buildDeck()));
    expect(judgement.findings.filter((finding) => finding.rule.startsWith('format.title'))).toEqual([]);
  });

  it('with the layout bare too, the master title style decides: its size and the theme colour and heading font', async () => {
    const path = files.write('master.pptx', await editDeck(await buildDeck(), { '^ppt/slides/slide\\d+\\.xml$': bareTitleRuns, '^ppt/slideLayouts/slideLayout\\d+\\.xml$': bareTitleRuns }));
    const master = await (await JSZip.loadAsync(await buildDeck())).file('ppt/slideMasters/slideMaster1.xml')!.async('string');
    // pptxgenjs's master: titleStyle 44 pt in scheme colour tx1 with the theme's heading font (+mj-lt).
    expect(master).toMatch(/<p:titleStyle>.*sz="4400".*schemeClr val="tx1".*typeface="\+mj-lt"/s);
    const theme = await (await JSZip.loadAsync(await buildDeck())).file('ppt/theme/theme1.xml')!.async('string');
    const majorFont = /<a:majorFont><a:latin typeface="([^"]+)"/.exec(theme)?.[1];
    const dark1 = /<a:dk1>.*?(?:val|lastClr)="([0-9A-F]{6})"/s.exec(theme)?.[1];
    expect(majorFont).toMatch(/\w/);
    expect(dark1).toMatch(/^[0-9A-F]{6}$/);
    expect(await titleOf(path)).toStrictEqual({ size: 44, color: dark1, font: majorFont });
    // Now it really differs from the template, and the finding says by how much.
    const judgement = await judgeDocument(path, files.write('reference2.pptx', await buildDeck()));
    expect(judgement.findings.find((finding) => finding.rule === 'format.title-size')).toMatchObject({ severity: 'high', expected: '28 pt', actual: '44 pt' });
  });

  it('a body placeholder with no size anywhere on the slide or layout takes the master body style level by level', async () => {
    const path = files.write('body.pptx', await editDeck(await buildDeck(), {
      '^ppt/slides/slide2\\.xml$': (xml) => xml.replace('</p:spTree>', '<p:sp><p:nvSpPr><p:cNvPr id="90" name="Body 9"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="7"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="3800000"/><a:ext cx="4000000" cy="800000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>First level</a:t></a:r></a:p><a:p><a:pPr lvl="1"/><a:r><a:rPr lang="en-US"/><a:t>Second level</a:t></a:r></a:p></p:txBody></p:sp></p:spTree>'),
    }));
    const deck = await readDeck(await openPackage(path));
    const body = deck.slides[1]!.shapes.find((shape) => shape.name === 'Body 9')!;
    expect(body.paragraphs.map((paragraph) => paragraph.style.size)).toEqual([32, 28]);
  });

  it('group shapes place their children through the group transform', async () => {
    const group = '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="80" name="Group 1"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="914400" y="914400"/><a:ext cx="1828800" cy="914400"/><a:chOff x="0" y="0"/><a:chExt cx="914400" cy="457200"/></a:xfrm></p:grpSpPr><p:sp><p:nvSpPr><p:cNvPr id="81" name="Inner"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="0"/><a:ext cx="457200" cy="457200"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="1000"/><a:t>In a group</a:t></a:r></a:p></p:txBody></p:sp></p:grpSp>';
    const path = files.write('group.pptx', await editDeck(await buildDeck(), { '^ppt/slides/slide2\\.xml$': (xml) => xml.replace('</p:spTree>', `${group}</p:spTree>`) }));
    const deck = await readDeck(await openPackage(path));
    expect(deck.slides[1]!.shapes.find((shape) => shape.name === 'Inner')!.box).toEqual({ x: 914400 + 914400, y: 914400, w: 914400, h: 914400 });
  });
});

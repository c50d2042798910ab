import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';

/** The store's screenshot size: 1280x800 (or 640x400); anything else is refused at upload. */
export const STORE_SCREENSHOT = { width: 1280, height: 800 } as const;

/** The screenshots the listing shows, in order: the README's first-screen pictures first. */
const SHOTS = ['task-completed', 'approval', 'plan-approval', 'first-run', 'controlled-tab', 'step-thumbnails', 'history'];

/**
 * The Chrome Web Store listing beside the upload: the screenshots from docs/screenshots fitted onto the store's
 * 1280x800 canvas (the side panel is narrow and tall, so each is scaled to the height and centred), the 128 px icon,
 * the privacy text (docs/privacy.md, the page the README links) and the description. sharp is loaded here, where it
 * is needed, not by whatever imports this module.
 */
export async function buildStoreListing(rootDir: string, version: string, description: string): Promise<{ zip: Buffer; files: string[] }> {
  const { default: sharp } = await import('sharp');
  const zip = new JSZip();
  const shotsDir = join(rootDir, 'docs', 'screenshots');
  const present = new Set(await readdir(shotsDir));
  for (const [index, name] of SHOTS.filter((shot) => present.has(`${shot}.png`)).entries()) {
    const fitted = await sharp(join(shotsDir, `${name}.png`))
      .resize({ ...STORE_SCREENSHOT, fit: 'contain', background: { r: 241, g: 243, b: 246, alpha: 1 } })
      .flatten({ background: '#f1f3f6' })
      .png()
      .toBuffer();
    zip.file(`screenshots/${String(index + 1).padStart(2, '0')}-${name}.png`, fitted);
  }
  zip.file('icon-128.png', await readFile(join(rootDir, 'extension', 'assets', 'icon-128.png')));
  zip.file('privacy.md', await readFile(join(rootDir, 'docs', 'privacy.md')));
  zip.file('description.txt', `Deputy ${version}\n\n${description}\n`);
  const files = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir).sort();
  return { zip: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), files };
}

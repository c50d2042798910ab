import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Renders a document's pages to PNG for the side-by-side report: LibreOffice (headless, with a throwaway profile so
 * a LibreOffice the user has open is never disturbed) converts it to PDF, then pdftoppm draws each page. Either tool
 * missing, or a conversion that fails or takes too long, is reported as a reason, never thrown: the findings do not
 * depend on the pictures.
 */
export interface RenderTools {
  soffice?: string;
  pdftoppm?: string;
}

export type RenderResult = { ok: true; pages: string[] } | { ok: false; reason: string };

export const INSTALL_HINT =
  'install LibreOffice and poppler (Debian/Ubuntu: apt-get install libreoffice-impress libreoffice-calc libreoffice-writer poppler-utils; macOS: brew install --cask libreoffice && brew install poppler)';

function onPath(names: string[], env: NodeJS.ProcessEnv, extra: string[] = []): string | undefined {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  return extra.find((path) => existsSync(path));
}

/** Finds soffice and pdftoppm: DEPUTY_SOFFICE / DEPUTY_PDFTOPPM first, then PATH, then the usual install folders. */
export function findRenderTools(env: NodeJS.ProcessEnv = process.env): RenderTools {
  const soffice =
    env.DEPUTY_SOFFICE ??
    onPath(['soffice', 'libreoffice', 'soffice.exe'], env, [
      '/Applications/LibreOffice.app/Contents/MacOS/soffice',
      'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
    ]);
  const pdftoppm =
    env.DEPUTY_PDFTOPPM ??
    onPath(['pdftoppm', 'pdftoppm.exe'], env, ['/opt/homebrew/bin/pdftoppm', '/usr/local/bin/pdftoppm']);
  return { ...(soffice ? { soffice } : {}), ...(pdftoppm ? { pdftoppm } : {}) };
}

function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: process.platform !== 'win32' });
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    const timer = setTimeout(() => {
      timedOut = true;
      // LibreOffice starts helper processes: stop the whole group.
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stderr: error.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut });
    });
  });
}

/** Renders up to `maxPages` pages of `file` as `<prefix>-<n>.png` in `outDir`. */
export async function renderPages(
  file: string,
  outDir: string,
  prefix: string,
  options: { tools: RenderTools; maxPages?: number; timeoutMs?: number; dpi?: number },
): Promise<RenderResult> {
  const { soffice, pdftoppm } = options.tools;
  if (!soffice) return { ok: false, reason: `LibreOffice (soffice) was not found: ${INSTALL_HINT}` };
  if (!pdftoppm) return { ok: false, reason: `pdftoppm was not found: ${INSTALL_HINT}` };
  const timeoutMs = options.timeoutMs ?? 120_000;
  const work = await mkdtemp(join(tmpdir(), 'deputy-render-'));
  try {
    const profile = pathToFileURL(join(work, 'profile')).href;
    const converted = await run(
      soffice,
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--convert-to',
        'pdf',
        '--outdir',
        work,
        file,
      ],
      timeoutMs,
    );
    const pdf = join(work, `${basename(file, extname(file))}.pdf`);
    if (converted.timedOut)
      return {
        ok: false,
        reason: `LibreOffice took longer than ${Math.round(timeoutMs / 1000)} s to convert ${basename(file)}`,
      };
    if (!existsSync(pdf))
      return {
        ok: false,
        reason: `LibreOffice could not convert ${basename(file)} to PDF (exit ${converted.code}${converted.stderr.trim() ? `: ${converted.stderr.trim().split('\n').at(-1)}` : ''}); for .xlsx and .docx it needs libreoffice-calc and libreoffice-writer`,
      };
    await mkdir(outDir, { recursive: true });
    const drawn = await run(
      pdftoppm,
      [
        '-png',
        '-r',
        String(options.dpi ?? 50),
        '-f',
        '1',
        '-l',
        String(options.maxPages ?? 20),
        pdf,
        join(outDir, prefix),
      ],
      timeoutMs,
    );
    if (drawn.code !== 0)
      return { ok: false, reason: `pdftoppm failed on ${basename(file)} (exit ${drawn.code}): ${drawn.stderr.trim()}` };
    const pages = (await readdir(outDir))
      .filter((name) => name.startsWith(`${prefix}-`) && name.endsWith('.png'))
      .sort((a, b) => Number(/-(\d+)\.png$/.exec(a)?.[1]) - Number(/-(\d+)\.png$/.exec(b)?.[1]))
      .map((name) => join(outDir, name));
    return pages.length > 0 ? { ok: true, pages } : { ok: false, reason: `pdftoppm drew no page of ${basename(file)}` };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

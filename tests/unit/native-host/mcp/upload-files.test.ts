import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadRequest } from '../../../../native-host/mcp/upload-files';

describe('uploadRequest: the files an agent names for browser_upload', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deputy-upload-'));
    await writeFile(join(dir, 'report.pdf'), 'twelve bytes');
    await mkdir(join(dir, 'other'));
    await writeFile(join(dir, 'other', 'report.pdf'), 'x');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds each file by its absolute path and names it by file name for the page', async () => {
    const found = await uploadRequest({ ref: 4, files: [join(dir, 'report.pdf')] });
    expect(found).toEqual({ arguments: { ref: 4, files: ['report.pdf'] }, files: [{ name: 'report.pdf', size: 12, type: '', path: join(dir, 'report.pdf') }] });
  });

  it('refuses relative paths, missing files, folders and two files of one name, saying what to do', async () => {
    const error = async (files: string[]): Promise<string> => {
      const found = await uploadRequest({ ref: 1, files });
      return 'error' in found ? found.error : 'no error';
    };
    expect(await error(['report.pdf'])).toContain('is not an absolute path');
    expect(await error([join(dir, 'gone.pdf')])).toContain(`There is no file at ${join(dir, 'gone.pdf')}`);
    expect(await error([join(dir, 'other')])).toContain('is not a file');
    expect(await error([join(dir, 'report.pdf'), join(dir, 'other', 'report.pdf')])).toContain('Two files are named "report.pdf"');
  });

  it('leaves arguments that are not a list of paths to the tool\'s own validation', async () => {
    expect(await uploadRequest({ ref: 1, files: 'report.pdf' })).toEqual({ arguments: { ref: 1, files: 'report.pdf' }, files: [] });
  });
});

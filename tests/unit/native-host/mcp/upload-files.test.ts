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
    expect(await uploadRequest({ ref: 1, files: ['report.pdf'] })).toEqual({ error: expect.stringContaining('is not an absolute path') });
    expect(await uploadRequest({ ref: 1, files: [join(dir, 'gone.pdf')] })).toEqual({ error: expect.stringContaining(`There is no file at ${join(dir, 'gone.pdf')}`) });
    expect(await uploadRequest({ ref: 1, files: [join(dir, 'other')] })).toEqual({ error: expect.stringContaining('is not a file') });
    expect(await uploadRequest({ ref: 1, files: [join(dir, 'report.pdf'), join(dir, 'other', 'report.pdf')] })).toEqual({ error: expect.stringContaining('Two files are named "report.pdf"') });
  });

  it('leaves arguments that are not a list of paths to the tool\'s own validation', async () => {
    expect(await uploadRequest({ ref: 1, files: 'report.pdf' })).toEqual({ arguments: { ref: 1, files: 'report.pdf' }, files: [] });
  });
});

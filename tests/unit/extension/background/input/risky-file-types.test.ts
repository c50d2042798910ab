import { describe, expect, it } from 'vitest';
import { isExecutable } from '../../../../../extension/background/input/downloads';
import { RISKY_EXTENSIONS, isRiskyFile, lastExtension } from '../../../../../extension/background/input/risky-file-types';

// A generated matrix: every listed type, in several spellings a page can serve, is held; ordinary documents are not.
const spellings = (ext: string): string[] => [`file.${ext}`, `Report 2026.${ext.toUpperCase()}`, `invoice.pdf.${ext}`, `setup.${ext}.`, `dir/sub\\name.${ext}`, `x.${ext} `];
const SAFE = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'csv', 'txt', 'md', 'json', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'mp3', 'mp4', 'zip', 'html', 'ics', 'vcf'];

describe('risky download types (from Chromium download file type policies, plus macro-enabled documents)', () => {
  it('lists a broad set, including .desktop and macro-enabled Office formats', () => {
    expect(RISKY_EXTENSIONS.size).toBeGreaterThan(150);
    for (const ext of ['desktop', 'docm', 'xlsm', 'pptm', 'dotm', 'xlam', 'ppsm', 'vbs', 'hta', 'lnk', 'scr', 'settingcontent-ms', 'appimage', 'jar', 'dmg']) expect(RISKY_EXTENSIONS.has(ext), ext).toBe(true);
  });
  for (const ext of RISKY_EXTENSIONS) {
    it(`holds .${ext} however it is spelled`, () => {
      for (const name of spellings(ext)) expect(isExecutable(name, 'application/octet-stream'), name).toBe(true);
    });
  }
  it('leaves ordinary documents, images and archives alone, also with a risky word in the name', () => {
    for (const ext of SAFE) for (const name of [`file.${ext}`, `exe.${ext}`, `setup.exe.${ext}`]) expect(isRiskyFile(name, 'application/octet-stream'), name).toBe(false);
  });
  it('judges by type when the name says nothing', () => {
    for (const mime of ['application/x-msdownload', 'application/vnd.ms-word.document.macroEnabled.12', 'application/vnd.ms-excel.sheet.macroEnabled.12; charset=binary', 'application/x-desktop']) {
      expect(isRiskyFile('download', mime), mime).toBe(true);
    }
    expect(isRiskyFile('download', 'application/pdf')).toBe(false);
  });
  it('reads the last extension as the file system does', () => {
    expect(lastExtension('a.pdf.exe')).toBe('exe');
    expect(lastExtension('a.DOCM. ')).toBe('docm');
    expect(lastExtension('.bashrc')).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { CORPUS_ABSENT, corpusFiles, corpusPresent } from '../../../fixtures/documents/corpus';
import { runCorpusPool } from '../../../fixtures/documents/corpus-pool';
import type { SelfCompareResult } from '../../../fixtures/documents/corpus-worker';

/**
 * Every file of the real-world corpus (580 PPTX/XLSX/DOCX files nobody here made) compared with itself: as output
 * and template, and against the rules learned from it. A reference is acceptable by definition, so any finding is a
 * false alarm. A file that does not open must get a clear error that names it and what failed, within the time
 * limit: never a crash or a hang (each file runs in a child process that is killed past the limit).
 */
const CLEAR_REFUSAL =
  /is encrypted|is a legacy binary Office file|is not an Office document|is corrupt: its (zip package|part \S+)|is damaged: |is a zip file but not|is a PDF/;

describe.skipIf(!corpusPresent())(
  `the real-world corpus compared with itself${corpusPresent() ? '' : ` (skipped: ${CORPUS_ABSENT})`}`,
  () => {
    it('gives zero findings for every file that opens, and a clear error for every file that does not', async () => {
      const files = corpusFiles();
      const results = await runCorpusPool<SelfCompareResult>(
        'self-compare',
        files.map((file) => file.path),
        { workers: 2, timeoutMs: 240_000 },
      );
      expect(results).toHaveLength(files.length);
      const problems: string[] = [];
      let opened = 0;
      for (const result of results) {
        const name = result.file.slice(result.file.indexOf('office-corpus/') + 'office-corpus/'.length);
        if (result.outcome !== 'done') {
          problems.push(
            `${name}: ${result.outcome === 'timeout' ? 'did not finish within 240 s (a hang: the slowest file takes seconds on a quiet machine)' : `crashed the process (${result.detail})`}`,
          );
          continue;
        }
        const value = result.value!;
        if (value.opened) {
          opened += 1;
          for (const finding of [...value.asTemplate, ...value.learned])
            problems.push(`${name}: ${finding.severity} ${finding.rule} at ${finding.location}: ${finding.message}`);
          if (value.hollow) problems.push(`${name}: judged hollow against itself`);
        } else if (!value.clear || !value.error.includes(result.file) || !CLEAR_REFUSAL.test(value.error))
          problems.push(`${name}: unclear error: ${value.error}`);
      }
      expect(problems).toEqual([]);
      // Most of the corpus is well-formed: a reader that refused them all would pass the loop above.
      expect(opened).toBeGreaterThan(files.length * 0.9);
    }, 1_800_000);
  },
);

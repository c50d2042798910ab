import { describe, expect, it } from 'vitest';
import { CORPUS_ABSENT, corpusFiles, corpusPresent } from '../../../fixtures/documents/corpus';
import { runCorpusPool } from '../../../fixtures/documents/corpus-pool';
import type { ReferenceResult } from '../../../fixtures/documents/corpus-worker';

/**
 * `deputy compare --reference` over real files (tests/fixtures/documents/value-planter.ts): each file against itself
 * as its expected output gives no finding at all; with one number or one word changed, the change is reported as
 * high, with its rule and place (cell, slide and shape, section paragraph). Per class, recall and the other findings
 * that came with it are printed; the floor below is what is measured today (see the figures in the output).
 */
const PER_KIND = 40;
const RECALL_FLOOR = 0.85;

describe.skipIf(!corpusPresent())(
  `values changed in the real-world corpus, against the original as reference${corpusPresent() ? '' : ` (skipped: ${CORPUS_ABSENT})`}`,
  () => {
    it('reports nothing for a file against itself, and each changed number or text at its place', async () => {
      const files = (['pptx', 'docx', 'xlsx'] as const).flatMap((kind) =>
        corpusFiles()
          .filter((file) => file.kind === kind)
          .slice(0, PER_KIND),
      );
      const results = await runCorpusPool<ReferenceResult>(
        'reference',
        files.map((file) => file.path),
        { workers: 2, timeoutMs: 120_000 },
      );
      const problems: string[] = [];
      const stats = new Map<string, { planted: number; found: number; extra: number }>();
      for (const result of results) {
        if (result.outcome === 'crash') problems.push(`${result.file}: crashed (${result.detail})`);
        for (const finding of result.value?.self ?? []) problems.push(`${result.file} against itself: ${finding}`);
        for (const plant of result.value?.plants ?? []) {
          const entry = stats.get(plant.defect) ?? { planted: 0, found: 0, extra: 0 };
          entry.planted += 1;
          entry.found += plant.found ? 1 : 0;
          entry.extra += plant.extra.length;
          stats.set(plant.defect, entry);
        }
      }
      process.stderr.write(
        `values planted over ${files.length} corpus files:\n${[...stats]
          .map(([name, entry]) => `${name.padEnd(22)} planted ${String(entry.planted).padStart(3)}  found ${String(entry.found).padStart(3)}  recall ${(entry.found / entry.planted).toFixed(2)}  other findings ${entry.extra}`)
          .join('\n')}\n`,
      );
      expect(problems).toEqual([]);
      // Every kind and both classes were planted somewhere: a planter that found nothing to change would pass the rest.
      expect(stats.size).toBe(6);
      for (const [name, entry] of stats) {
        expect({ name, enough: entry.planted >= 5 }).toEqual({ name, enough: true });
        expect({ name, recall: entry.found / entry.planted >= RECALL_FLOOR }).toEqual({ name, recall: true });
      }
    }, 600_000);
  },
);

import { describe, expect, it } from 'vitest';
import { corpusReport } from '../../../../scripts/lib/bench-compare-corpus';
import { runFilesTimed, type FileOutcome } from '../../../../scripts/lib/timed-file-runner';
import { buildDeck } from '../../../fixtures/documents/deck-builder';
import { tempFiles } from '../../../fixtures/documents/temp-files';

const STALLING = new URL('../../../fixtures/bench/stalling-worker.ts', import.meta.url);
const REAL = new URL('../../../../scripts/lib/bench-compare-worker.ts', import.meta.url);

describe('bench:compare per-file timeout', () => {
  it('a file that never yields is ended and named, one whose worker dies is named, and the files after them still run', async () => {
    const seen: number[] = [];
    const outcomes = await runFilesTimed(['/a.pptx', '/spin.pptx', '/b.xlsx', '/exit.docx', '/c.docx'], { worker: STALLING, timeoutMs: 1500, onFile: (index) => seen.push(index) });
    expect(outcomes).toEqual([
      { path: '/a.pptx', floorMs: 1, compareMs: 2 },
      { path: '/spin.pptx', timedOutMs: 1500 },
      { path: '/b.xlsx', floorMs: 1, compareMs: 2 },
      { path: '/exit.docx', crashed: 'the worker exited with code 3' },
      { path: '/c.docx', floorMs: 1, compareMs: 2 },
    ]);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const report = corpusReport(
      outcomes.map((outcome: FileOutcome) => ({ kind: outcome.path.slice(-4), outcome })),
      'corpus:',
      1500,
    );
    expect(report).toContain('Files that did not finish (2):\n  /spin.pptx: did not finish within 2 s\n  /exit.docx: crashed (the worker exited with code 3)');
    expect(report).toMatch(/^pptx\s+1\s+0\s+1\s/m);
  });

  it('the real worker times a real deck against itself, and refuses a file that is not Office with its reason', async () => {
    const files = tempFiles('deputy-timed-runner-');
    try {
      const deck = files.write('deck.pptx', await buildDeck());
      const junk = files.write('junk.pptx', Buffer.from('not a zip file'));
      const [timed, refused] = await runFilesTimed([deck, junk], { worker: REAL, timeoutMs: 90_000 });
      expect(timed && 'compareMs' in timed && timed.path === deck && timed.floorMs > 0 && timed.compareMs > 0).toBe(true);
      expect(refused && 'refused' in refused && refused.path === junk ? refused.refused : '').toMatch(/\S/);
    } finally {
      files.cleanup();
    }
  }, 240_000);
});

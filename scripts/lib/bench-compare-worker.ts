import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { judgeDocument } from '../../native-host/documents/judge-document';
import { unzipAndParse } from './unzip-and-parse';
import type { FileTiming } from './timed-file-runner';

/**
 * The worker of bench:compare's corpus part: times one file at a time, as the main thread sends them. It runs in a
 * worker so that a file that never finishes (even in a loop that never yields) can be ended from outside.
 */
parentPort?.on('message', (path: string) => {
  void (async (): Promise<FileTiming> => {
    const data = readFileSync(path);
    let started = performance.now();
    try {
      await unzipAndParse(data);
    } catch {
      // A file the libraries cannot open has no floor; deputy's clear refusal of it is what counts.
    }
    const floorMs = performance.now() - started;
    started = performance.now();
    try {
      await judgeDocument(path, path);
    } catch (error) {
      return { path, refused: error instanceof Error ? error.message : String(error) };
    }
    return { path, floorMs, compareMs: performance.now() - started };
  })().then((timing) => parentPort?.postMessage(timing));
});

import { Worker } from 'node:worker_threads';

/** What the worker says about one file: its two timings, or deputy's refusal of it. */
export type FileTiming = { path: string; floorMs: number; compareMs: number } | { path: string; refused: string };
/**
 * A file the worker did not finish within the time limit, or one during which the worker died (out of memory, a
 * native crash): the worker was ended and the next file went to a new one.
 */
export type FileOutcome = FileTiming | { path: string; timedOutMs: number } | { path: string; crashed: string };

export interface TimedRunOptions {
  /** The worker module: answers each path it is sent with one FileTiming. */
  worker: URL;
  /** How long one file may take, floor and compare together. */
  timeoutMs: number;
  onFile?: (index: number, outcome: FileOutcome) => void;
}

/**
 * Sends the files one at a time to a worker thread and waits for each at most `timeoutMs`. A file that takes longer
 * (a hang in the reader, or a loop that never yields) is reported as timed out, its worker terminated and a new one
 * started for the rest, so one bad file cannot stall the benchmark. The limit counts from when the file is sent to a
 * worker that has loaded, never the worker's own start-up. The worker is a .ts module, loaded through tsx
 * (scripts/ts-worker.mjs) as the script is.
 */
/** What scripts/ts-worker.mjs posts once the worker's module has loaded. */
const WORKER_READY = 'deputy:ts-worker-ready';
/** How long a new worker may take to load its module: generous, as loading through tsx is slow on a busy machine. */
const WORKER_START_MS = 120_000;

export async function runFilesTimed(paths: readonly string[], options: TimedRunOptions): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = [];
  let worker: Worker | undefined;
  // A new worker is sent its first file only once its module has loaded, so the per-file limit never counts the load.
  const start = (): Promise<Worker | { crashed: string }> =>
    new Promise((resolve) => {
      const created = new Worker(new URL('../ts-worker.mjs', import.meta.url), { argv: [options.worker.href] });
      const timer = setTimeout(() => {
        cleanup();
        void created.terminate();
        resolve({ crashed: `the worker did not load within ${Math.round(WORKER_START_MS / 1000)} s` });
      }, WORKER_START_MS);
      const onMessage = (message: unknown): void => {
        if (message !== WORKER_READY) return;
        cleanup();
        resolve(created);
      };
      const onError = (error: Error): void => {
        cleanup();
        void created.terminate();
        resolve({ crashed: `the worker failed to load: ${error.message}` });
      };
      const onExit = (code: number): void => {
        cleanup();
        resolve({ crashed: `the worker exited with code ${code} while loading` });
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        created.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      created.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  try {
    for (const [index, path] of paths.entries()) {
      if (worker === undefined) {
        const started = await start();
        if (!(started instanceof Worker)) {
          const outcome: FileOutcome = { path, crashed: started.crashed };
          outcomes.push(outcome);
          options.onFile?.(index, outcome);
          continue;
        }
        worker = started;
      }
      const current = worker;
      const outcome = await new Promise<FileOutcome>((resolve) => {
        const timer = setTimeout(() => {
          cleanup();
          resolve({ path, timedOutMs: options.timeoutMs });
        }, options.timeoutMs);
        const onMessage = (timing: FileTiming): void => {
          cleanup();
          resolve(timing);
        };
        const onError = (error: Error): void => {
          cleanup();
          resolve({ path, crashed: error.message });
        };
        const onExit = (code: number): void => {
          cleanup();
          resolve({ path, crashed: `the worker exited with code ${code}` });
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          current.off('message', onMessage).off('error', onError).off('exit', onExit);
        };
        current.on('message', onMessage).on('error', onError).on('exit', onExit);
        current.postMessage(path);
      });
      if ('timedOutMs' in outcome || 'crashed' in outcome) {
        await current.terminate();
        worker = undefined;
      }
      outcomes.push(outcome);
      options.onFile?.(index, outcome);
    }
  } finally {
    await worker?.terminate();
  }
  return outcomes;
}

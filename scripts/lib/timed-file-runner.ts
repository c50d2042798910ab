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

/** What a worker did next: answered (a message `accept` took), ran out of time, failed, or exited. */
type Heard<T> = { answer: T } | { timedOut: true } | { error: Error } | { exitCode: number };

/** Waits at most `ms` for the worker's next answer that `accept` takes, its error or its exit; leaves no listener. */
function hear<T>(worker: Worker, ms: number, accept: (message: unknown) => T | undefined): Promise<Heard<T>> {
  return new Promise((resolve) => {
    const settle = (heard: Heard<T>): void => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      resolve(heard);
    };
    const onMessage = (message: unknown): void => {
      const answer = accept(message);
      if (answer !== undefined) settle({ answer });
    };
    const onError = (error: Error): void => settle({ error });
    const onExit = (exitCode: number): void => settle({ exitCode });
    const timer = setTimeout(() => settle({ timedOut: true }), ms);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** A new worker once its module has loaded, so the per-file limit never counts the load; else why it did not load. */
async function startWorker(module: URL): Promise<Worker | { crashed: string }> {
  const worker = new Worker(new URL('../ts-worker.mjs', import.meta.url), { argv: [module.href] });
  const heard = await hear(worker, WORKER_START_MS, (message) => (message === WORKER_READY ? true : undefined));
  if ('answer' in heard) return worker;
  if ('exitCode' in heard) return { crashed: `the worker exited with code ${heard.exitCode} while loading` };
  await worker.terminate();
  return { crashed: 'error' in heard ? `the worker failed to load: ${heard.error.message}` : `the worker did not load within ${Math.round(WORKER_START_MS / 1000)} s` };
}

export async function runFilesTimed(paths: readonly string[], options: TimedRunOptions): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = [];
  let worker: Worker | undefined;
  const record = (index: number, outcome: FileOutcome): void => {
    outcomes.push(outcome);
    options.onFile?.(index, outcome);
  };
  try {
    for (const [index, path] of paths.entries()) {
      if (worker === undefined) {
        const started = await startWorker(options.worker);
        if (!(started instanceof Worker)) {
          record(index, { path, crashed: started.crashed });
          continue;
        }
        worker = started;
      }
      const heard = hear(worker, options.timeoutMs, (message) => message as FileTiming);
      worker.postMessage(path);
      const result = await heard;
      if ('answer' in result) {
        record(index, result.answer);
        continue;
      }
      await worker.terminate();
      worker = undefined;
      if ('timedOut' in result) record(index, { path, timedOutMs: options.timeoutMs });
      else record(index, { path, crashed: 'error' in result ? result.error.message : `the worker exited with code ${result.exitCode}` });
    }
  } finally {
    await worker?.terminate();
  }
  return outcomes;
}

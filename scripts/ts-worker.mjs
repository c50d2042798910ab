// A worker thread's entry that runs a TypeScript module through tsx: Node 20 does not apply `--import tsx` to a
// worker's own entry file, so the module given as the worker's argument is loaded with tsx's API instead.
import process from 'node:process';
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const module = process.argv[2];
if (!module) throw new Error('ts-worker.mjs needs the URL of the TypeScript module to run (the Worker option argv)');
await tsImport(module, import.meta.url);
// Loading the module through tsx can take seconds on a busy machine: a caller that times the work it sends waits for
// this before starting its clock, so the load is never counted against the first job.
// (scripts/lib/timed-file-runner.ts knows the same string.)
parentPort?.postMessage('deputy:ts-worker-ready');

import { percentile, timings } from '../bench/timings';

/** Median wall time of `runs` calls after `warmup` calls: what the benchmarks print. */
export async function medianTime(run: () => Promise<unknown> | unknown, runs: number, warmup: number): Promise<number> {
  return percentile(await timings(run, runs, warmup), 0.5);
}

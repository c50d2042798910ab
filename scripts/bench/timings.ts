/** How long `work` takes, in ms, over `runs` runs after `warmup` unmeasured ones, sorted from fastest to slowest. */
export async function timings(work: () => Promise<unknown> | unknown, runs: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** The value at fraction `at` (0.5 for the median) of sorted times. */
export function percentile(sorted: number[], at: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * at))] ?? Number.NaN;
}

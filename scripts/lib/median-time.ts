/** Median wall time of `runs` calls after `warmup` calls: what the benchmarks print. */
export async function medianTime(run: () => Promise<unknown> | unknown, runs: number, warmup: number): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/**
 * Pairs the items of a reference sequence with those of an output sequence: equal keys are matched in order (a
 * longest common subsequence), and between two matches the leftovers are paired in order, so one inserted or removed
 * paragraph shifts nothing after it while a changed one is still compared with what it was. Past `MAX_CELLS` the
 * table would be too large to build; items are then paired by position.
 */
const MAX_CELLS = 4_000_000;

export interface Pair<T> {
  reference?: T;
  output?: T;
  /** 0-based positions in each sequence. */
  referenceIndex?: number;
  outputIndex?: number;
}

export function alignSequences<T>(reference: readonly T[], output: readonly T[], key: (item: T) => string): Pair<T>[] {
  const n = reference.length;
  const m = output.length;
  const anchors: Array<[number, number]> = [];
  if (n * m <= MAX_CELLS) {
    const a = reference.map(key);
    const b = output.map(key);
    // lengths[i][j]: LCS of a[i..] and b[j..], in one flat array.
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i -= 1)
      for (let j = m - 1; j >= 0; j -= 1)
        lengths[i * width + j] =
          a[i] === b[j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[i] === b[j]) {
        anchors.push([i, j]);
        i += 1;
        j += 1;
      } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i += 1;
      else j += 1;
    }
  }
  anchors.push([n, m]);
  const pairs: Pair<T>[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj] of anchors) {
    while (i < ai || j < bj) {
      const pair: Pair<T> = {};
      if (i < ai) Object.assign(pair, { reference: reference[i], referenceIndex: i++ });
      if (j < bj) Object.assign(pair, { output: output[j], outputIndex: j++ });
      pairs.push(pair);
    }
    if (ai < n && bj < m) pairs.push({ reference: reference[ai], output: output[bj], referenceIndex: ai, outputIndex: bj });
    i = ai + 1;
    j = bj + 1;
  }
  return pairs;
}

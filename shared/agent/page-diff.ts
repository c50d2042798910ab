/**
 * The line diff of two page snapshots, as the model reads it after an action instead of the whole page: unified-diff
 * hunks (`@@ -a,b +c,d @@`, then lines starting with " " kept, "-" removed, "+" added), line numbers counted in the
 * earlier snapshot. The diff carries everything needed to rebuild the new page from the old one (applyPageDiff), so
 * nothing the model could read in the full page is lost.
 */

/** Above this many cells the middle of two pages is not aligned line by line; it is replaced whole instead. */
const MAX_CELLS = 4_000_000;
/** Unchanged lines shown around each change, so the model sees where it is on the page. */
const CONTEXT = 1;

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

/** Edit script from `a` to `b`: common head and tail trimmed, the middle aligned by longest common subsequence. */
function editScript(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  const ops: Op[] = [];
  for (let i = 0; i < head; i += 1) ops.push({ kind: ' ', line: a[i] ?? '', a: i, b: i });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    midA.forEach((line, i) => ops.push({ kind: '-', line, a: head + i, b: head }));
    midB.forEach((line, j) => ops.push({ kind: '+', line, a: head + n, b: head + j }));
  } else {
    // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const lcs = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        lcs[i * (m + 1) + j] =
          midA[i] === midB[j]
            ? (lcs[(i + 1) * (m + 1) + j + 1] ?? 0) + 1
            : Math.max(lcs[(i + 1) * (m + 1) + j] ?? 0, lcs[i * (m + 1) + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ kind: ' ', line: midA[i] ?? '', a: head + i, b: head + j });
        i += 1;
        j += 1;
      } else if (j < m && (i >= n || (lcs[i * (m + 1) + j + 1] ?? 0) >= (lcs[(i + 1) * (m + 1) + j] ?? 0))) {
        ops.push({ kind: '+', line: midB[j] ?? '', a: head + i, b: head + j });
        j += 1;
      } else {
        ops.push({ kind: '-', line: midA[i] ?? '', a: head + i, b: head + j });
        i += 1;
      }
    }
  }
  for (let k = 0; k < tail; k += 1)
    ops.push({ kind: ' ', line: a[a.length - tail + k] ?? '', a: a.length - tail + k, b: b.length - tail + k });
  return ops;
}

/** The hunks that turn `before` into `after`; an empty string when they are the same. */
export function pageDiff(before: string, after: string): string {
  const ops = editScript(before.split('\n'), after.split('\n'));
  const out: string[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]?.kind === ' ') {
      k += 1;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change within reach.
    let start = k;
    while (start > 0 && k - start < CONTEXT && ops[start - 1]?.kind === ' ') start -= 1;
    let end = k;
    for (;;) {
      while (end < ops.length && ops[end]?.kind !== ' ') end += 1;
      let run = 0;
      while (end + run < ops.length && ops[end + run]?.kind === ' ') run += 1;
      if (end + run < ops.length && run <= 2 * CONTEXT) {
        end += run;
        continue;
      }
      end += Math.min(run, CONTEXT);
      break;
    }
    const hunk = ops.slice(start, end);
    const first = hunk[0] as Op;
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${first.a + 1},${oldCount} +${first.b + 1},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    k = end;
  }
  return out.join('\n');
}

/** Rebuilds the later page from the earlier one and pageDiff's hunks; throws on hunks that do not fit the page. */
export function applyPageDiff(before: string, diff: string): string {
  const a = before.split('\n');
  const out: string[] = [];
  let at = 0;
  const lines = diff === '' ? [] : diff.split('\n');
  for (const line of lines) {
    const header = /^@@ -(\d+),\d+ \+\d+,\d+ @@$/.exec(line);
    if (header) {
      const start = Number(header[1]) - 1;
      if (start < at) throw new Error(`page diff hunks out of order at line ${start + 1}`);
      out.push(...a.slice(at, start));
      at = start;
      continue;
    }
    const kind = line[0];
    const text = line.slice(1);
    if (kind === '+') out.push(text);
    else if (kind === ' ' || kind === '-') {
      if (a[at] !== text) throw new Error(`page diff does not fit the page at line ${at + 1}`);
      if (kind === ' ') out.push(text);
      at += 1;
    } else throw new Error(`not a page diff line: ${line.slice(0, 80)}`);
  }
  out.push(...a.slice(at));
  return out.join('\n');
}

/**
 * A unified diff of two short texts (a document region before and after rendering), by longest
 * common subsequence of lines. Regions are tens of lines, so the quadratic table is fine.
 */

type Op = { kind: ' ' | '-' | '+'; line: string };

function ops(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ kind: '-', line: a[i]! });
      i++;
    } else {
      out.push({ kind: '+', line: b[j]! });
      j++;
    }
  }
  return out;
}

/**
 * The unified diff of `before` and `after` (arrays of lines), with `context` lines around each
 * change. `firstLine` is the 1-based line of `before[0]` in its file, so hunks carry real line
 * numbers. Returns '' when they are equal.
 */
export function unifiedDiff(before: string[], after: string[], labels: [string, string], firstLine = 1, context = 3): string {
  const all = ops(before, after);
  if (all.every((o) => o.kind === ' ')) return '';
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  let k = 0;
  let aLine = firstLine;
  let bLine = firstLine;
  while (k < all.length) {
    if (all[k]!.kind === ' ') {
      k++;
      aLine++;
      bLine++;
      continue;
    }
    // A hunk: back up `context` lines, then run until `context` unchanged lines follow the last change.
    const start = Math.max(0, k - context);
    let end = k;
    let quiet = 0;
    for (let x = k; x < all.length; x++) {
      if (all[x]!.kind === ' ') {
        quiet++;
        if (quiet > context * 2) break;
      } else {
        quiet = 0;
        end = x;
      }
    }
    const stop = Math.min(all.length, end + context + 1);
    const back = k - start;
    const hunk = all.slice(start, stop);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    // An empty side names the line before it, as diff(1) does.
    const aStart = aLine - back - (aCount === 0 ? 1 : 0);
    const bStart = bLine - back - (bCount === 0 ? 1 : 0);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    for (let x = k; x < stop; x++) {
      if (all[x]!.kind !== '+') aLine++;
      if (all[x]!.kind !== '-') bLine++;
    }
    k = stop;
  }
  return `${out.join('\n')}\n`;
}

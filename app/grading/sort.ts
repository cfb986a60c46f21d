// Index sorting by integer millisecond times: a stable LSD radix sort (16-bit digits) over
// typed arrays, then runs of equal times are ordered by a tie-break comparator.
// O(n) for the time key; the comparator only sees elements that share a time.
import { scratchRaw } from "./scratch";

/**
 * Returns the positions of `times` (integer ms, finite) in ascending time order; elements with
 * equal times are ordered by `tie(a, b)` (indices into `times`). `keep`, when given, selects
 * which elements take part (others are left out of the result).
 */
export function sortIndexByTime(
  times: Float64Array,
  tie: ((a: number, b: number) => number) | null,
  keep?: (i: number) => boolean,
  slot = "sort",
): Uint32Array {
  const n0 = times.length;
  let idx = scratchRaw(`${slot}.a`, "u32", n0);
  let n = 0;
  let sorted = true;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n0; i++) {
    if (keep && !keep(i)) continue;
    const t = times[i];
    if (n > 0) {
      const prev = times[idx[n - 1]];
      if (t < prev || (t === prev && tie !== null && tie(idx[n - 1], i) > 0)) sorted = false;
    }
    idx[n++] = i;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if (n < n0) idx = idx.subarray(0, n);
  if (sorted || n < 2) return idx;

  if (n < 64) {
    const arr = Array.from(idx);
    arr.sort((a, b) => times[a] - times[b] || (tie ? tie(a, b) : a - b));
    idx.set(arr);
    return idx;
  }

  // Stable LSD radix sort on (time - min), 16 bits per pass.
  const range = max - min;
  const passes = Math.max(1, Math.ceil(Math.log2(range + 1) / 16));
  let src = idx;
  let dst = scratchRaw(`${slot}.b`, "u32", n);
  const count = new Uint32Array(65537);
  let div = 1;
  for (let p = 0; p < passes; p++) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(Math.floor((times[src[i]] - min) / div) & 0xffff) + 1]++;
    for (let d = 0; d < 65536; d++) count[d + 1] += count[d];
    for (let i = 0; i < n; i++) {
      const e = src[i];
      dst[count[Math.floor((times[e] - min) / div) & 0xffff]++] = e;
    }
    const tmp = src;
    src = dst;
    dst = tmp;
    div *= 65536;
  }
  idx = src;

  if (tie !== null) {
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i === n || times[idx[i]] !== times[idx[start]]) {
        if (i - start > 1) {
          const run = Array.from(idx.subarray(start, i));
          run.sort(tie);
          idx.set(run, start);
        }
        start = i;
      }
    }
  }
  return idx;
}

/** Code-unit string comparison (locale-free, deterministic). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

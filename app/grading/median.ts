// Median of a Float64Array in O(n) (the holding times of up to a million round trips).
import { scratchRaw } from "./scratch";

/** Index of a double's high 32-bit word (1 on little-endian machines). */
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * Median, O(n), the input left untouched. For non-negative values (holding times) the bit pattern
 * of a double orders like its value, so a histogram of the top 16 bits finds the one or two
 * buckets holding the middle ranks; quickselect then runs on those few values only.
 */
export function medianOf(values: Float64Array): number | null {
  const n = values.length;
  if (n === 0) return null;
  const k = n >> 1;
  const hiWords = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  const count = new Uint32Array(65536);
  const negative = histogram(hiWords, n, count);
  let lo = 0; // first rank kept
  let keepFrom = 0;
  let keepTo = 65535;
  if (!negative) {
    // Buckets holding ranks k - 1 (even n) and k.
    const first = n % 2 === 1 ? k : k - 1;
    keepFrom = bucketOfRank(count, first);
    lo = countBelow(count, keepFrom);
    keepTo = bucketOfRank(count, k);
  }
  let m = 0;
  for (let b = keepFrom; b <= keepTo; b++) m += count[b];
  const a = scratchRaw("median", "f64", m);
  gather(values, hiWords, keepFrom, keepTo, a);
  const hi = select(a, k - lo);
  if (n % 2 === 1) return hi;
  // The lower middle is the largest element left of position k - lo after selection.
  return (maxOf(a, k - lo) + hi) / 2;
}

// The loops are functions of their own: called once per grade, a loop inside
// medianOf ran as on-stack-replaced code that was thrown away at the code after it, every grade.

/** Counts the values per top 16 bits into `count`; true when one is negative. */
function histogram(hiWords: Uint32Array, n: number, count: Uint32Array): boolean {
  const at = HI; // a local: a module constant is re-read and checked at each use
  let negative = false;
  for (let i = 0; i < n; i++) {
    const hi = hiWords[2 * i + at]; // the sign, exponent and top of the mantissa
    if (hi >= 0x80000000) negative = true;
    count[hi >>> 16]++;
  }
  return negative;
}

/** The bucket holding rank `rank` (0-based) of the histogram. */
function bucketOfRank(count: Uint32Array, rank: number): number {
  let seen = 0;
  let b = 0;
  while (seen + count[b] <= rank) seen += count[b++];
  return b;
}

/** Values in the buckets before `b`. */
function countBelow(count: Uint32Array, b: number): number {
  let seen = 0;
  for (let i = 0; i < b; i++) seen += count[i];
  return seen;
}

/** Copies into `a` the values whose top 16 bits fall in [from, to]. */
function gather(values: Float64Array, hiWords: Uint32Array, from: number, to: number, a: Float64Array): void {
  const at = HI;
  let j = 0;
  for (let i = 0; i < values.length; i++) {
    const bucket = hiWords[2 * i + at] >>> 16;
    if (bucket >= from && bucket <= to) a[j++] = values[i];
  }
}

/** Largest of a[0 .. end) (−Infinity when empty). */
function maxOf(a: Float64Array, end: number): number {
  let below = -Infinity;
  for (let i = 0; i < end; i++) if (a[i] > below) below = a[i];
  return below;
}

/** Hoare-style quickselect: the k-th smallest (0-based); partitions `a` in place. */
function select(a: Float64Array, k: number): number {
  let left = 0;
  let right = a.length - 1;
  while (right > left) {
    const pivot = a[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k];
}

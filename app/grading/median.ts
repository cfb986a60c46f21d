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
  let negative = false;
  for (let i = 0; i < n; i++) {
    const hi = hiWords[2 * i + HI]; // the sign, exponent and top of the mantissa
    if (hi >= 0x80000000) negative = true;
    count[hi >>> 16]++;
  }
  let lo = 0; // first rank kept
  let keepFrom = 0;
  let keepTo = 65535;
  if (!negative) {
    // Buckets holding ranks k - 1 (even n) and k.
    const first = n % 2 === 1 ? k : k - 1;
    let seen = 0;
    let b = 0;
    while (seen + count[b] <= first) seen += count[b++];
    keepFrom = b;
    lo = seen;
    while (seen + count[b] <= k) seen += count[b++];
    keepTo = b;
  }
  let m = 0;
  for (let b = keepFrom; b <= keepTo; b++) m += count[b];
  const a = scratchRaw("median", "f64", m);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const bucket = hiWords[2 * i + HI] >>> 16;
    if (bucket >= keepFrom && bucket <= keepTo) a[j++] = values[i];
  }
  const hi = select(a, k - lo);
  if (n % 2 === 1) return hi;
  // The lower middle is the largest element left of position k - lo after selection.
  let below = -Infinity;
  for (let i = 0; i < k - lo; i++) if (a[i] > below) below = a[i];
  return (below + hi) / 2;
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

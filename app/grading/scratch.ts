// Reusable typed-array scratch space.
//
// Why: a grade of a 1,000,000-trade ledger needs ~90 MB of typed arrays. Allocated fresh on every
// call, that much external memory makes V8 start a full mark-compact of the whole heap, and the
// heap is dominated by the caller's parsed ledger (hundreds of MB of objects), so each grade paid
// 150–300 ms of GC. Buffers are therefore kept between calls and handed out as views.
//
// Contract: views are valid only during one synchronous grade() call and never escape it (every
// output is copied into plain objects). grade() is synchronous and calls no user code, so reuse is
// safe; results do not depend on the previous contents (every view is zero- or value-filled).
// Call releaseScratch() to give the memory back (e.g. after grading an unusually large ledger).

type Kind = "f64" | "i32" | "u32" | "i8" | "u8";
type ArrayOf<K extends Kind> = K extends "f64"
  ? Float64Array
  : K extends "i32"
    ? Int32Array
    : K extends "u32"
      ? Uint32Array
      : K extends "i8"
        ? Int8Array
        : Uint8Array;

const CTORS = {
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  i8: Int8Array,
  u8: Uint8Array,
} as const;

/** Buffers smaller than this are simply allocated (cheap, and not worth keeping). */
const MIN_POOLED = 4096;

const pool = new Map<string, Float64Array | Int32Array | Uint32Array | Int8Array | Uint8Array>();

/**
 * A view of `n` elements for the named slot, filled with `fill` (default 0). Each slot name must
 * be used by one live array at a time.
 */
export function scratch<K extends Kind>(slot: string, kind: K, n: number, fill = 0): ArrayOf<K> {
  const Ctor = CTORS[kind];
  if (n < MIN_POOLED) {
    const a = new Ctor(n);
    if (fill !== 0) a.fill(fill);
    return a as ArrayOf<K>;
  }
  const key = `${kind}:${slot}`;
  let buf = pool.get(key);
  if (buf === undefined || buf.length < n) {
    buf = new Ctor(buf === undefined ? n : Math.ceil(n * 1.25)); // exact first, then some headroom
    pool.set(key, buf);
  }
  const view = buf.subarray(0, n);
  view.fill(fill);
  return view as ArrayOf<K>;
}

/** Like scratch() but without clearing: for arrays that are fully written before being read. */
export function scratchRaw<K extends Kind>(slot: string, kind: K, n: number): ArrayOf<K> {
  const Ctor = CTORS[kind];
  if (n < MIN_POOLED) return new Ctor(n) as ArrayOf<K>;
  const key = `${kind}:${slot}`;
  let buf = pool.get(key);
  if (buf === undefined || buf.length < n) {
    buf = new Ctor(buf === undefined ? n : Math.ceil(n * 1.25));
    pool.set(key, buf);
  }
  return buf.subarray(0, n) as ArrayOf<K>;
}

/** A new array of the kind (not pooled). */
export function fresh<K extends Kind>(kind: K, n: number): ArrayOf<K> {
  return new CTORS[kind](n) as ArrayOf<K>;
}

/** Drops every pooled buffer. */
export function releaseScratch(): void {
  pool.clear();
}

/** Bytes currently held by the pool. */
export function scratchBytes(): number {
  let b = 0;
  for (const a of pool.values()) b += a.byteLength;
  return b;
}

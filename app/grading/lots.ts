// FIFO lot matching per (account, symbol), pieces, round trips, the trade-only cash path.
// One pass over the sorted columns; lots live in typed arrays indexed by the trade that opened
// them (a trade opens at most one lot), chained per position as a FIFO linked list.
import type { Columns } from "./columns";
import { scratch, scratchRaw } from "./scratch";

/** Relative tolerance under which a remaining quantity counts as zero. */
export const QTY_EPS = 1e-9;

export interface Gap {
  /** Sorted trade index. */
  k: number;
  /** Quantity sold beyond the long position (left out). */
  excess: number;
}

export interface LotsResult {
  realizedPnl: number;
  /** Fees of the counted quantities (every fee, unless a crypto gap left part of a sell out). */
  fees: number;
  pieces: number;
  /** Position quantity (signed) of the trade's (account, symbol) after each trade. */
  posAfter: Float64Array;
  /** Trade-only cash after each trade (Σ sells − Σ buys − fees, counted quantities). */
  cashAfter: Float64Array;
  /** Lowest trade-only cash, including the initial 0. */
  minCash: number;
  /** Round trips in closing order. */
  rtCount: number;
  rtPnl: Float64Array;
  rtHoldDays: Float64Array;
  /** Sorted trade index of the closing trade. */
  rtClose: Int32Array;
  /** Σ entry price × quantity of the round trip's pieces (its size, for the break-even band). */
  rtNotional: Float64Array;
  /** Open lots at the end: per position, head of the FIFO list (-1 when flat). */
  head: Int32Array;
  next: Int32Array;
  lotRem: Float64Array;
  posQty: Float64Array;
  gaps: Gap[];
  gapCount: number;
}

const MAX_GAPS_KEPT = 20;
// Local copies (not imports) so the hot loop reads plain constants.
const DAY_MS = 86_400_000;
const CRYPTO_CODE = 2;

export function matchLots(c: Columns): LotsResult {
  const { n, time, qty, price, fee, dir, cls, pos, nPos } = c;
  const head = scratch("head", "i32", nPos, -1);
  const tail = scratch("tail", "i32", nPos, -1);
  const posQty = scratch("posQty", "f64", nPos);
  const rtAccPnl = scratch("rtAccPnl", "f64", nPos);
  const rtAccQ = scratch("rtAccQ", "f64", nPos);
  const rtAccQH = scratch("rtAccQH", "f64", nPos);
  const rtAccN = scratch("rtAccN", "f64", nPos);
  const next = scratch("next", "i32", n, -1);
  const lotRem = scratchRaw("lotRem", "f64", n);
  const posAfter = scratchRaw("posAfter", "f64", n);
  const cashAfter = scratchRaw("cashAfter", "f64", n);
  // A trade closes at most one round trip, so n bounds the count.
  const rtPnl = scratchRaw("rtPnl", "f64", n);
  const rtHold = scratchRaw("rtHold", "f64", n);
  const rtClose = scratchRaw("rtClose", "i32", n);
  const rtNotional = scratchRaw("rtNotional", "f64", n);

  const acc = new Float64Array(7); // realized, fees, cash, minCash, rtCount, pieces, gapCount
  const gaps: Gap[] = [];
  lotLoop(n, time, qty, price, fee, dir, cls, pos, head, tail, posQty, rtAccPnl, rtAccQ, rtAccQH, rtAccN,
    next, lotRem, posAfter, cashAfter, rtPnl, rtHold, rtClose, rtNotional, acc, gaps);
  const rtCount = acc[4];
  const pieces = acc[5];
  const gapCount = acc[6];

  return {
    realizedPnl: acc[0],
    fees: acc[1],
    pieces,
    posAfter,
    cashAfter,
    minCash: acc[3],
    rtCount,
    rtPnl: rtPnl.subarray(0, rtCount),
    rtHoldDays: rtHold.subarray(0, rtCount),
    rtClose: rtClose.subarray(0, rtCount),
    rtNotional: rtNotional.subarray(0, rtCount),
    head,
    next,
    lotRem,
    posQty,
    gaps,
    gapCount,
  };
}


/**
 * The matching loop, alone in its function so V8 optimises it whole. Loop-carried doubles live in
 * `acc` (as plain locals of an OSR-compiled loop V8 boxed them: a heap number per update).
 */
function lotLoop(
  n: number, time: Float64Array, qty: Float64Array, price: Float64Array, fee: Float64Array, dir: Int8Array,
  cls: Uint8Array, pos: Int32Array, head: Int32Array, tail: Int32Array, posQty: Float64Array,
  rtAccPnl: Float64Array, rtAccQ: Float64Array, rtAccQH: Float64Array, rtAccN: Float64Array,
  next: Int32Array, lotRem: Float64Array, posAfter: Float64Array, cashAfter: Float64Array,
  rtPnl: Float64Array, rtHold: Float64Array, rtClose: Int32Array, rtNotional: Float64Array,
  acc: Float64Array, gaps: Gap[],
): void {
  // Loop-carried doubles live in a typed array: as plain locals of this OSR-compiled loop V8
  // boxed them (a heap number per update, ~30 MB of garbage per million trades).
  let pieces = 0;
  let gapCount = 0;
  let rtCount = 0;

  for (let k = 0; k < n; k++) {
    const p = pos[k];
    const q = qty[k];
    const px = price[k];
    const t = time[k];
    const d = dir[k];
    const feePU = fee[k] / q;
    const tol = q * QTY_EPS;
    let remaining = q;
    let pq = posQty[p];

    if (pq !== 0 && (pq > 0 ? d < 0 : d > 0)) {
      // Closing against the oldest lots.
      const side = pq > 0 ? 1 : -1;
      let L = head[p];
      let accPnl = 0;
      let accQ = 0;
      let accQH = 0;
      let accN = 0;
      while (L >= 0 && remaining > 0) {
        const r = lotRem[L];
        const m = r <= remaining + tol ? r : remaining;
        const pnl = (px - price[L]) * m * side - (fee[L] / qty[L] + feePU) * m;
        accPnl += pnl;
        accQ += m;
        accN += m * price[L];
        accQH += m * ((t - time[L]) / DAY_MS);
        pieces++;
        remaining -= m;
        if (remaining <= tol) remaining = 0;
        if (m === r) {
          lotRem[L] = 0;
          L = next[L];
        } else {
          lotRem[L] = r - m;
        }
      }
      head[p] = L;
      if (L < 0) tail[p] = -1;
      acc[0] += accPnl;
      rtAccPnl[p] += accPnl;
      rtAccQ[p] += accQ;
      rtAccQH[p] += accQH;
      rtAccN[p] += accN;
      if (L < 0) {
        pq = 0;
        // Round trip complete.
        rtPnl[rtCount] = rtAccPnl[p];
        rtHold[rtCount] = rtAccQ[p] > 0 ? rtAccQH[p] / rtAccQ[p] : 0;
        rtClose[rtCount] = k;
        rtNotional[rtCount] = rtAccN[p];
        rtCount++;
        rtAccN[p] = 0;
        rtAccPnl[p] = 0;
        rtAccQ[p] = 0;
        rtAccQH[p] = 0;
      } else {
        pq -= side * (q - remaining);
      }
    }

    let counted = q;
    if (remaining > 0) {
      if (d < 0 && cls[k] === CRYPTO_CODE) {
        // Crypto cannot be sold short: the excess is a data gap, left out of P&L and cash.
        counted = q - remaining;
        gapCount++;
        if (gaps.length < MAX_GAPS_KEPT) gaps.push({ k, excess: remaining });
      } else {
        // Open (or add to) a lot.
        lotRem[k] = remaining;
        if (tail[p] >= 0) next[tail[p]] = k;
        else head[p] = k;
        tail[p] = k;
        pq += d * remaining;
      }
    }
    posQty[p] = pq;
    posAfter[k] = pq;

    const f = counted === q ? fee[k] : feePU * counted;
    acc[1] += f;
    const cash = (acc[2] += d > 0 ? -px * counted - f : px * counted - f);
    cashAfter[k] = cash;
    if (cash < acc[3]) acc[3] = cash;
  }

  acc[4] = rtCount;
  acc[5] = pieces;
  acc[6] = gapCount;
}

// Open positions at asOf, marked at the latest mark, and their unrealized P&L.
import type { PreparedLedger } from "./columns";
import { ASSET_CLASSES } from "./ledger";
import { LOT_FEE_PU, LOT_FIELDS, LOT_PRICE, LOT_REM, type PassResult } from "./pass";
import type { Position } from "./types";

/** Each position with open lots, by account then symbol; unrealized: their P&L, net of entry fees. */
export function openPositions(c: PreparedLedger, pass: PassResult): { positions: Position[]; unrealized: number } {
  const positions: Position[] = [];
  let unrealized = 0;
  for (let p = 0; p < pass.nPos; p++) {
    let L = pass.head[p];
    if (L < 0) continue;
    const s = pass.posSym[p];
    const mark = pass.markAtAsOf[s];
    const side = pass.posQty[p] > 0 ? 1 : -1;
    let q = 0;
    let cost = 0;
    let u = 0;
    while (L >= 0) {
      const o = L * LOT_FIELDS;
      const r = pass.lots[o + LOT_REM];
      const entry = pass.lots[o + LOT_PRICE];
      q += r;
      cost += r * entry;
      u += (mark - entry) * r * side - pass.lots[o + LOT_FEE_PU] * r;
      L = pass.next[L];
    }
    unrealized += u;
    // The columns count a contract's units of underlying; the trader counts contracts.
    const m = c.symMult !== undefined && s < c.symMult.length ? c.symMult[s] : 1;
    const position: Position = {
      account: c.accounts[pass.posAcc[p]],
      symbol: c.symbols[s],
      assetClass: ASSET_CLASSES[c.symCls[s]],
      quantity: m === 1 ? side * q : (side * q) / m,
      avgCost: q > 0 ? cost / q : 0,
      mark,
      marketValue: side * q * mark,
      unrealizedPnl: u,
    };
    if (m !== 1) position.multiplier = m;
    positions.push(position);
  }
  positions.sort((a, b) => cmp(a.account, b.account) || cmp(a.symbol, b.symbol));
  return { positions, unrealized };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// The ledger's events: receive/send become trade rows (after the trades), the others are decoded
// into PreparedEvents for the pass; then every symbol gets its asset class.
import {
  CLASS_CODES,
  CRYPTO,
  EV_CODES,
  EV_RENAME,
  EV_SPINOFF,
  EV_TRANSFER,
  ROW_FEE,
  ROW_INCOME,
  ROW_INCOME_HELD,
  ROW_RECEIVE,
  ROW_SEND,
  type PreparedEvent,
} from "../columns";
import { isInKindEvent, TRUSTED_CONFIDENCE, type Ledger } from "../ledger";
import { internAcc, internSym, type Reading } from "./read";

type InKind = {
  kind: "receive" | "send" | "fee" | "income";
  account: string;
  symbol: string;
  quantity: number;
  price: number;
  confidence?: number;
  assetClass?: Ledger["trades"][number]["assetClass"];
};

const ROW_OF = { receive: ROW_RECEIVE, send: ROW_SEND, fee: ROW_FEE } as const;

/** A symbol's contract size (1 unless its trades name another). */
function multiplierOf(r: Reading, s: number): number {
  const m = r.symMult;
  return m !== null && s < m.length ? m[s] : 1;
}

/** Fills the receive/send rows (after the trades) from their events. */
export function readInKindRows(events: Ledger["events"], evTime: Float64Array, r: Reading): void {
  const { nT, inKind, time, sym, acc, qty, price, fee, dir, row } = r.rows;
  for (let j = 0; j < inKind.length; j++) {
    const e = events[inKind[j]] as unknown as InKind;
    const k = nT + j;
    time[k] = evTime[inKind[j]];
    const s = internSym(r.names, e.symbol);
    sym[k] = s;
    acc[k] = internAcc(r.names, e.account);
    // Contracts moved count their units of underlying, like a trade's (prepare/read.ts).
    qty[k] = e.quantity * multiplierOf(r, s);
    price[k] = e.price;
    fee[k] = 0;
    dir[k] = e.kind === "receive" || e.kind === "income" ? 1 : -1;
    if (e.kind !== "income") row[k] = ROW_OF[e.kind];
    else row[k] = e.confidence !== undefined && e.confidence >= TRUSTED_CONFIDENCE ? ROW_INCOME : ROW_INCOME_HELD;
    if (r.symCls[s] === undefined && e.assetClass !== undefined) r.symCls[s] = CLASS_CODES[e.assetClass];
  }
}

/** The events other than receive/send, decoded in input order (names interned). */
export function decodeEvents(events: Ledger["events"], evTime: Float64Array, r: Reading): PreparedEvent[] {
  const out: PreparedEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const kind = EV_CODES[e.kind];
    if (kind === undefined || isInKindEvent(e)) continue; // receive, send, fee or income in kind: trade rows
    const pe: PreparedEvent = { time: evTime[i], kind, src: i, acc: -1, acc2: -1, sym: -1, sym2: -1, x: 0, y: 0 };
    switch (e.kind) {
      case "income":
        pe.acc = internAcc(r.names, e.account);
        if (e.symbol !== undefined) pe.sym = internSym(r.names, e.symbol);
        pe.x = e.amount!; // income in kind is a row (isInKindEvent): here it has an amount
        break;
      case "fee":
        pe.acc = internAcc(r.names, e.account);
        pe.x = e.amount!; // a fee in kind is a row (isInKindEvent): here it has an amount
        break;
      case "split":
        pe.sym = internSym(r.names, e.symbol);
        if (e.account !== undefined) pe.acc = internAcc(r.names, e.account);
        pe.x = e.ratio;
        break;
      case "rename":
        pe.sym = internSym(r.names, e.from);
        pe.sym2 = internSym(r.names, e.to);
        pe.x = e.ratio ?? 1;
        break;
      case "spinoff":
        pe.sym = internSym(r.names, e.symbol);
        pe.sym2 = internSym(r.names, e.newSymbol);
        pe.x = e.ratio;
        pe.y = e.costFraction;
        break;
      case "transfer":
        pe.acc = internAcc(r.names, e.from);
        pe.acc2 = internAcc(r.names, e.to);
        pe.sym = internSym(r.names, e.symbol);
        pe.x = e.quantity * multiplierOf(r, pe.sym);
        // Wrapping or a bridge's token: the units arrive as toSymbol, y of them per unit sent.
        if (e.toSymbol !== undefined && e.toSymbol !== e.symbol) {
          pe.sym2 = internSym(r.names, e.toSymbol);
          pe.y = (e.toQuantity ?? e.quantity) / e.quantity;
        }
        break;
    }
    out.push(pe);
  }
  return out;
}

/**
 * Every symbol's class: what the trades and receives said; a symbol only events name inherits its
 * class through renames, spin-offs and wrapping transfers (in time order), else is crypto (a
 * wallet's received token).
 * The receive/send rows take their symbol's class.
 */
export function symbolClasses(ev0: PreparedEvent[], r: Reading): Uint8Array {
  const known = r.symCls;
  for (const e of [...ev0].sort((a, b) => a.time - b.time)) {
    const changesForm = e.kind === EV_RENAME || e.kind === EV_SPINOFF || (e.kind === EV_TRANSFER && e.sym2 >= 0);
    if (changesForm && known[e.sym2] === undefined && known[e.sym] !== undefined) known[e.sym2] = known[e.sym];
  }
  const nSym = r.names.symbols.length;
  const symCls = new Uint8Array(nSym);
  for (let s = 0; s < nSym; s++) symCls[s] = known[s] ?? CRYPTO;
  const { nT, n0, sym, cls } = r.rows;
  for (let k = nT; k < n0; k++) cls[k] = symCls[sym[k]];
  return symCls;
}

// Every currency (ledger v3.1, docs/GRADING.md §1 and §4): a ledger whose rows name a currency
// other than its base is turned, before it is prepared, into a ledger in the base currency — every
// amount converted at the rate of its own date (a trade's cost basis at the trade date's rate) —
// plus the few things a single-currency ledger cannot say, handed to the pass as internal events:
// each rate change re-values the foreign cash held (an FX gain or loss in cash) and re-prices the
// marks of that currency's symbols, and an `fx` exchange at other than the reference rates gains or
// loses the difference. A ledger all in its base currency never comes here (needsFx): it keeps the
// single-currency path, its costs and its output byte for byte.
import { EV_FXPNL, EV_FXRATE, type PreparedEvent } from "./columns";
import { isInKindEvent, type Ledger } from "./ledger";
import { parseIsoMs } from "./time";

export const DEFAULT_BASE = "USD";

/** A currency's reference rates in time order: base units per unit, carried forward. */
export interface RateTable {
  base: string;
  times: Map<string, Float64Array>;
  rates: Map<string, Float64Array>;
}

/** What converting a ledger gives besides the converted ledger (on PreparedLedger.fx). */
export interface FxInfo {
  base: string;
  /** Foreign currencies the graded rows hold, sorted. */
  currencies: string[];
  /** Realized FX P&L on foreign cash (average cost per currency) and on exchanges off the reference rate. */
  fxRealizedPnl: number;
  /** Rows that could not be valued (no rate on or before their date), in words, one line per currency. */
  notUsed: string[];
  rates: RateTable;
  /** Currency index (into `currencies`) of each foreign symbol. */
  symbolCurrency: Map<string, number>;
  /** The benchmark's currency (converted into the base) when it is not the base. */
  benchmarkCurrency: string | null;
}

/**
 * Whether a ledger needs the currency path, trades aside: a base other than USD, a cash flow or an
 * event in another currency than the base, an exchange, or a benchmark in another currency. The
 * trades' currencies are read while prepare reads the trades (prepare/read.ts).
 */
export function needsFx(ledger: Ledger): boolean {
  const base = ledger.baseCurrency ?? DEFAULT_BASE;
  if (base !== DEFAULT_BASE) return true;
  const bc = ledger.benchmark?.currency;
  if (bc !== undefined && bc !== base) return true;
  for (const f of ledger.cashFlows ?? []) if (f.currency !== undefined && f.currency !== base) return true;
  for (const e of ledger.events ?? []) {
    if (e.kind === "fx") return true;
    if ("currency" in e && e.currency !== undefined && e.currency !== base) return true;
  }
  return false;
}

export function rateTable(ledger: Ledger): RateTable {
  const base = ledger.baseCurrency ?? DEFAULT_BASE;
  const by = new Map<string, { t: number; r: number; i: number }[]>();
  (ledger.fxRates?.rates ?? []).forEach((p, i) => {
    if (p.currency === base) return;
    const list = by.get(p.currency) ?? [];
    list.push({ t: parseIsoMs(p.time), r: p.rate, i });
    by.set(p.currency, list);
  });
  const times = new Map<string, Float64Array>();
  const rates = new Map<string, Float64Array>();
  for (const [cur, list] of by) {
    // Two rates at one time: the larger wins, whatever the input order (order never matters).
    list.sort((a, b) => a.t - b.t || a.r - b.r);
    times.set(
      cur,
      Float64Array.from(list, (x) => x.t),
    );
    rates.set(
      cur,
      Float64Array.from(list, (x) => x.r),
    );
  }
  return { base, times, rates };
}

/** Base units per unit of `cur` at `t`: the last rate on or before it (1 for the base; NaN when none). */
export function rateAt(table: RateTable, cur: string, t: number): number {
  if (cur === table.base) return 1;
  const times = table.times.get(cur);
  if (times === undefined) return NaN;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? NaN : table.rates.get(cur)![lo - 1];
}

/** The benchmark in the base currency: each close at its date's rate; closes without a rate left out. */
export function benchmarkInBase(bench: Ledger["benchmark"], table: RateTable): Ledger["benchmark"] {
  if (bench === undefined) return bench;
  const cur = bench.currency ?? DEFAULT_BASE;
  if (cur === table.base) return bench;
  const prices: { time: string; price: number }[] = [];
  for (const p of bench.prices) {
    const r = rateAt(table, cur, parseIsoMs(p.time));
    if (r === r) prices.push({ time: p.time, price: p.price * r });
  }
  return { symbol: bench.symbol, prices, currency: table.base };
}

/** A change of a currency's cash balance (local units) at an instant, for the average-cost pool. */
interface CashMove {
  t: number;
  rank: number;
  cur: string;
  units: number;
}

const MOVE_RANK = { flow: 1, income: 2, fx: 2, trade: 5 } as const;

export interface Converted {
  ledger: Ledger;
  /** Internal events for the pass (src -1), in time order, rate changes first at an instant. */
  events: PreparedEvent[];
  info: FxInfo;
}

/**
 * The ledger in its base currency (same rows, amounts converted; rows without a rate left out and
 * listed), and the pass's internal events. `asOfMs`: the grade's valuation time (as prepare reads it).
 */
export function convertLedger(ledger: Ledger, asOfMs: number): Converted {
  const table = rateTable(ledger);
  const base = table.base;
  const cut = (t: number) => !(t > asOfMs);
  const missing = new Map<string, string[]>();
  const miss = (cur: string, what: string) => {
    const list = missing.get(cur) ?? [];
    list.push(what);
    missing.set(cur, list);
  };
  const used = new Set<string>();
  const moves: CashMove[] = [];
  const move = (t: number, rank: number, cur: string, units: number) => {
    if (cur !== base && cut(t)) moves.push({ t, rank, cur, units });
  };
  const firstUse = new Map<string, number>();
  // (A row after asOf is converted, and left out by prepare, but holds nothing in the grade.)
  const held = (cur: string, t: number) => {
    if (cur === base || !cut(t)) return;
    used.add(cur);
    if (!(firstUse.get(cur)! <= t)) firstUse.set(cur, t);
  };
  let firstActivity = Infinity;
  const activity = (t: number) => {
    if (t < firstActivity) firstActivity = t;
  };

  // Symbols take their trades' (or receives', sends') currency; the parser refused two.
  const symbolCur = new Map<string, string>();
  for (const t of ledger.trades) if (!symbolCur.has(t.symbol)) symbolCur.set(t.symbol, t.currency ?? base);
  for (const e of ledger.events)
    if (isInKindEvent(e)) {
      const u = e as { symbol: string; currency?: string };
      if (!symbolCur.has(u.symbol)) symbolCur.set(u.symbol, u.currency ?? base);
    }
  // A symbol only renames, spin-offs or wrapping name inherits its origin's currency (its mark comes from it).
  const actions = ledger.events
    .filter((e) => e.kind === "rename" || e.kind === "spinoff" || (e.kind === "transfer" && e.toSymbol !== undefined))
    .sort((a, b) => parseIsoMs(a.time) - parseIsoMs(b.time));
  for (const e of actions) {
    const [from, to] =
      e.kind === "rename"
        ? [e.from, e.to]
        : e.kind === "spinoff"
          ? [e.symbol, e.newSymbol]
          : e.kind === "transfer"
            ? [e.symbol, e.toSymbol!]
            : ["", ""];
    if (!symbolCur.has(to) && symbolCur.has(from)) symbolCur.set(to, symbolCur.get(from)!);
  }

  const trades: Ledger["trades"] = [];
  for (const tr of ledger.trades) {
    const cur = tr.currency ?? base;
    const t = parseIsoMs(tr.time);
    const r = rateAt(table, cur, t);
    if (r !== r) {
      miss(cur, `trade ${tr.id}`);
      continue;
    }
    if (cut(t)) activity(t);
    if (cur === base) {
      trades.push(tr);
      continue;
    }
    held(cur, t);
    const fee = tr.fee ?? 0;
    // A contract's cash is its notional (v3.2). A margin product's is revalued with its position, so
    // the rate moves only its P&L: a forex pair's P&L in the quote currency reaches the base at the
    // rate of the day (DECISIONS 196).
    const notional = tr.quantity * tr.price * (tr.multiplier ?? 1);
    move(t, MOVE_RANK.trade, cur, tr.side === "buy" ? -(notional + fee) : notional - fee);
    trades.push({ ...tr, price: tr.price * r, fee: fee * r, currency: base });
  }

  const cashFlows: Ledger["cashFlows"] = [];
  for (const f of ledger.cashFlows) {
    const cur = f.currency ?? base;
    const t = parseIsoMs(f.time);
    const r = rateAt(table, cur, t);
    if (r !== r) {
      miss(cur, `cash flow of ${f.amount} ${cur} on ${f.time.slice(0, 10)}`);
      continue;
    }
    if (cut(t)) activity(t);
    if (cur === base) {
      cashFlows.push(f);
      continue;
    }
    held(cur, t);
    move(t, MOVE_RANK.flow, cur, f.amount);
    cashFlows.push({ ...f, amount: f.amount * r, currency: base });
  }

  const internal: PreparedEvent[] = [];
  let spreadPnl = 0;
  const events: Ledger["events"] = [];
  for (const e of ledger.events) {
    const t = parseIsoMs(e.time);
    if (e.kind === "fx") {
      const rs = rateAt(table, e.sell, t);
      const rb = rateAt(table, e.buy, t);
      if (rs !== rs || rb !== rb) {
        miss(rs !== rs ? e.sell : e.buy, `exchange ${e.id}`);
        continue;
      }
      if (cut(t)) activity(t);
      held(e.sell, t);
      held(e.buy, t);
      const fee = e.fee ?? 0;
      move(t, MOVE_RANK.fx, e.sell, -(e.sellAmount + fee));
      move(t, MOVE_RANK.fx, e.buy, e.buyAmount);
      // Bought at other than the reference rates: the difference is gained (or lost) at once.
      const spread = e.buyAmount * rb - e.sellAmount * rs;
      if (spread !== 0) {
        internal.push({ time: t, kind: EV_FXPNL, src: -1, acc: -1, acc2: -1, sym: -1, sym2: -1, x: spread, y: 0 });
        if (cut(t)) spreadPnl += spread;
      }
      if (fee > 0)
        events.push({ id: e.id, time: e.time, kind: "fee", account: e.account, amount: fee * rs, currency: base });
      continue;
    }
    if (e.kind === "income" || e.kind === "fee" || e.kind === "receive" || e.kind === "send") {
      const cur = e.currency ?? base;
      const r = rateAt(table, cur, t);
      if (r !== r) {
        miss(cur, `event ${e.id}`);
        continue;
      }
      if (cut(t)) activity(t);
      if (cur === base) {
        events.push(e);
        continue;
      }
      held(cur, t);
      if (e.kind === "income" && e.amount !== undefined) {
        move(t, MOVE_RANK.income, cur, e.amount);
        events.push({ ...e, amount: e.amount * r, currency: base });
      } else if (e.kind === "fee" && e.amount !== undefined) {
        move(t, MOVE_RANK.income, cur, -e.amount);
        events.push({ ...e, amount: e.amount * r, currency: base });
      } else events.push({ ...e, price: e.price! * r, currency: base });
      continue;
    }
    if (cut(t)) activity(t);
    events.push(e);
  }

  // Marks are in their symbol's currency; one dated before any activity is read at its start
  // (the rate changes before it re-price nothing yet).
  const prices: Ledger["prices"] = [];
  for (const p of ledger.prices) {
    const cur = symbolCur.get(p.symbol) ?? base;
    if (cur === base) {
      prices.push(p);
      continue;
    }
    const t = parseIsoMs(p.time);
    const r = rateAt(table, cur, Math.max(t, firstActivity));
    if (r !== r) {
      miss(cur, `price of ${p.symbol} on ${p.time.slice(0, 10)}`);
      continue;
    }
    held(cur, Math.max(t, firstActivity));
    prices.push({ ...p, price: p.price * r });
  }

  const currencies = [...used].sort();
  const curIndex = new Map(currencies.map((c, i) => [c, i]));
  const symbolCurrency = new Map<string, number>();
  for (const [s, cur] of symbolCur) if (curIndex.has(cur)) symbolCurrency.set(s, curIndex.get(cur)!);

  // Foreign cash is held only when the ledger says where the money came from: a ledger without
  // flows is graded as funded by the base currency at each trade (§4).
  // (As funding.ts: any flow at or before asOf, in cash or in kind.)
  const funded =
    cashFlows.some((f) => cut(parseIsoMs(f.time))) ||
    events.some((e) => (e.kind === "receive" || e.kind === "send") && cut(parseIsoMs(e.time)));
  const { rateEvents, realized } = revalue(table, currencies, curIndex, moves, firstUse, firstActivity, asOfMs, funded);

  const out: Ledger = {
    ...ledger,
    trades,
    cashFlows,
    prices,
    events,
    benchmark: benchmarkInBase(ledger.benchmark, table),
  };
  const all = [...rateEvents, ...internal].sort((a, b) => a.time - b.time || a.kind - b.kind);
  const notUsed: string[] = [];
  for (const [cur, list] of [...missing].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const times = table.times.get(cur);
    const why =
      times === undefined
        ? `there is no ${cur} rate in the ledger's rates`
        : `they are dated before the first ${cur} rate (${new Date(times[0]).toISOString().slice(0, 10)})`;
    const shown = list.slice(0, 5).join(", ") + (list.length > 5 ? ` and ${list.length - 5} more` : "");
    notUsed.push(
      `${list.length} item(s) in ${cur} could not be valued in ${base} and were left out: ${why} (${shown}).`,
    );
  }
  const bc = ledger.benchmark?.currency ?? DEFAULT_BASE;
  const dropped = (ledger.benchmark?.prices.length ?? 0) - (out.benchmark?.prices.length ?? 0);
  if (dropped > 0)
    notUsed.push(
      `${dropped} benchmark close(s) in ${bc} could not be valued in ${base} and were left out: there is no ${bc} rate on or before their date.`,
    );
  return {
    ledger: out,
    events: all,
    info: {
      base,
      currencies,
      fxRealizedPnl: realized + spreadPnl,
      notUsed,
      rates: table,
      symbolCurrency,
      benchmarkCurrency: ledger.benchmark !== undefined && bc !== base ? bc : null,
    },
  };
}

/**
 * Each rate change after a currency's first use (and after the ledger's first activity) up to
 * asOf: an internal event re-pricing that currency's marks by new ÷ old rate and re-valuing its
 * cash balance just before the change. Meanwhile the average-cost pool of each balance realizes FX
 * P&L on every unit that leaves it (spent, withdrawn, exchanged): units × (rate − average cost).
 * The pool's realized plus its open gain is the sum of the re-valuations (docs/GRADING.md §4).
 */
function revalue(
  table: RateTable,
  currencies: string[],
  curIndex: Map<string, number>,
  moves: CashMove[],
  firstUse: Map<string, number>,
  firstActivity: number,
  asOfMs: number,
  funded: boolean,
): { rateEvents: PreparedEvent[]; realized: number } {
  type Step = { t: number; rank: number; cur: string; units: number; rate: number; change: boolean };
  const steps: Step[] = [];
  for (const m of moves) steps.push({ ...m, rate: rateAt(table, m.cur, m.t), change: false });
  for (const cur of currencies) {
    const times = table.times.get(cur);
    const rates = table.rates.get(cur);
    if (times === undefined || rates === undefined) continue;
    const from = Math.max(firstUse.get(cur) ?? Infinity, firstActivity);
    for (let i = 1; i < times.length; i++) {
      const t = times[i];
      if (!(t > from) || t > asOfMs || rates[i] === rates[i - 1]) continue;
      steps.push({ t, rank: 0, cur, units: 0, rate: rates[i], change: true });
    }
  }
  // In instant order: rate changes first, then flows, income and fees, exchanges, trades; ties by size.
  steps.sort(
    (a, b) => a.t - b.t || a.rank - b.rank || a.units - b.units || (a.cur < b.cur ? -1 : a.cur > b.cur ? 1 : 0),
  );
  const balance = new Map<string, number>();
  const cost = new Map<string, number>();
  const lastRate = new Map<string, number>();
  const rateEvents: PreparedEvent[] = [];
  let realized = 0;
  for (const s of steps) {
    const b = balance.get(s.cur) ?? 0;
    const p = cost.get(s.cur) ?? 0;
    if (s.change) {
      const old = lastRate.get(s.cur) ?? rateAt(table, s.cur, s.t - 1);
      lastRate.set(s.cur, s.rate);
      rateEvents.push({
        time: s.t,
        kind: EV_FXRATE,
        src: -1,
        acc: curIndex.get(s.cur)!,
        acc2: -1,
        sym: -1,
        sym2: -1,
        x: funded ? b * (s.rate - old) : 0,
        y: s.rate / old,
      });
      continue;
    }
    lastRate.set(s.cur, s.rate);
    if (!funded) continue;
    let units = s.units;
    let nb = b;
    let np = p;
    // Closing (part of) the balance realizes at the average cost; the rest opens at this rate.
    if (nb !== 0 && Math.sign(units) === -Math.sign(nb)) {
      const q = Math.min(Math.abs(units), Math.abs(nb));
      const avg = np / nb;
      realized += q * Math.sign(nb) * (s.rate - avg);
      nb -= q * Math.sign(nb);
      units += q * Math.sign(b);
      np = Math.abs(nb) <= 1e-9 * Math.abs(b) ? 0 : avg * nb;
      if (np === 0) nb = 0;
    }
    if (units !== 0) {
      nb += units;
      np += units * s.rate;
    }
    balance.set(s.cur, nb);
    cost.set(s.cur, np);
  }
  return { rateEvents, realized };
}

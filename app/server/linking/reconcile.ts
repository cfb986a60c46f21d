// Holdings reconciliation: the positions a ledger computes for one account against the positions
// its provider reports (Plaid's /investments/holdings/get). Pure: the caller reads both.
import type { Ledger } from "~/grading";

export type PositionDisagreement = { symbol: string; computed: number; reported: number };

/** Units held per symbol at the end of the ledger, for one account: trades, splits, spin-offs, transfers, receipts, renames. */
export function positionsOf(ledger: Pick<Ledger, "trades" | "events">, account: string): Map<string, number> {
  type Step = { time: string; order: number; apply: (held: Map<string, number>) => void };
  const steps: Step[] = [];
  const add = (held: Map<string, number>, symbol: string, q: number) => held.set(symbol, (held.get(symbol) ?? 0) + q);
  for (const t of ledger.trades) {
    if (t.account !== account) continue;
    steps.push({ time: t.time, order: 1, apply: (h) => add(h, t.symbol, t.side === "buy" ? t.quantity : -t.quantity) });
  }
  for (const e of ledger.events) {
    if ("account" in e && e.account !== undefined && e.account !== account) continue;
    // At one instant corporate actions come before the trades (docs/GRADING.md §1).
    if (e.kind === "split")
      steps.push({
        time: e.time,
        order: 0,
        apply: (h) => h.has(e.symbol) && h.set(e.symbol, h.get(e.symbol)! * e.ratio),
      });
    else if (e.kind === "receive") steps.push({ time: e.time, order: 0, apply: (h) => add(h, e.symbol, e.quantity) });
    else if (e.kind === "send") steps.push({ time: e.time, order: 0, apply: (h) => add(h, e.symbol, -e.quantity) });
    else if (e.kind === "spinoff")
      steps.push({
        time: e.time,
        order: 0,
        apply: (h) => h.has(e.symbol) && add(h, e.newSymbol, h.get(e.symbol)! * e.ratio),
      });
    else if (e.kind === "transfer") {
      if (e.from === account) steps.push({ time: e.time, order: 0, apply: (h) => add(h, e.symbol, -e.quantity) });
      if (e.to === account) steps.push({ time: e.time, order: 0, apply: (h) => add(h, e.symbol, e.quantity) });
    } else if (e.kind === "rename")
      steps.push({
        time: e.time,
        order: 0,
        apply: (h) => {
          const q = h.get(e.from);
          if (q === undefined) return;
          h.delete(e.from);
          add(h, e.to, q * e.ratio);
        },
      });
  }
  steps.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order));
  const held = new Map<string, number>();
  for (const s of steps) s.apply(held);
  return held;
}

/**
 * Symbols whose computed and reported quantities differ by more than a rounding (1e-6 of a unit
 * or of the position): held on one side only, or in another quantity.
 */
export function positionDisagreements(
  computed: Map<string, number>,
  reported: Map<string, number>,
): PositionDisagreement[] {
  const out: PositionDisagreement[] = [];
  for (const symbol of new Set([...computed.keys(), ...reported.keys()])) {
    const c = computed.get(symbol) ?? 0;
    const r = reported.get(symbol) ?? 0;
    if (Math.abs(c - r) > 1e-6 * Math.max(1, Math.abs(r))) out.push({ symbol, computed: round(c), reported: round(r) });
  }
  return out.sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

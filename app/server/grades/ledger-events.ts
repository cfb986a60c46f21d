// Turns the ledger events adapters stored (ledger_events) into the engine's events, resolving what
// only the whole history can tell: which trade a cancel removes, and the split ratio a change in
// units means. Pure: the ledger builder (ledger.server.ts) reads the rows and calls this.
import type { Ledger, LedgerEvent } from "~/grading";

export type StoredEvent = {
  account: string;
  externalId: string;
  /** ISO time. */
  time: string;
  kind: string;
  symbol: string | null;
  data: Record<string, unknown>;
  /** The amounts' currency, given only for a ledger that names currencies (buildUserLedger's other path). */
  currency?: string;
};

type Trade = Ledger["trades"][number];

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : NaN);
const str = (x: unknown) => (typeof x === "string" && x !== "" ? x : null);

/** What the trade moved in cash, as a provider states it: notional plus the fee on a buy, minus it on a sell. */
function cashOf(t: Trade): number {
  const notional = t.quantity * t.price;
  return t.side === "buy" ? notional + (t.fee ?? 0) : notional - (t.fee ?? 0);
}

const sameAmount = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-9 * Math.abs(b);

export function resolveEvents(
  trades: Trade[],
  stored: StoredEvent[],
): { trades: Trade[]; events: LedgerEvent[]; skipped: Record<string, number> } {
  const skipped: Record<string, number> = {};
  // Most ledgers have no events: nothing to resolve, and no need to sort 100,000 trades by time.
  if (stored.length === 0) return { trades, events: [], skipped };
  const skip = (why: string) => (skipped[why] = (skipped[why] ?? 0) + 1);
  const ordered = [...stored].sort((a, b) =>
    a.time < b.time ? -1 : a.time > b.time ? 1 : a.externalId < b.externalId ? -1 : 1,
  );

  // Cancels first: each removes the earliest trade of its account, symbol, quantity and amount
  // (at or before it) that no other cancel took.
  // By time, then id: the trades' order in the ledger (which the read does not fix) never decides.
  const byTime = [...trades].sort((a, b) =>
    a.time < b.time ? -1 : a.time > b.time ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const removed = new Set<Trade>();
  for (const e of ordered) {
    if (e.kind !== "cancel") continue;
    const quantity = num(e.data.quantity);
    const amount = num(e.data.amount);
    const match = byTime.find(
      (t) =>
        !removed.has(t) &&
        t.account === e.account &&
        t.symbol === e.symbol &&
        t.time <= e.time &&
        Math.abs(t.quantity - quantity) <= 1e-9 * quantity &&
        (sameAmount(cashOf(t), amount) || sameAmount(t.quantity * t.price, amount)),
    );
    if (match) removed.add(match);
    else skip("cancel without the transaction it cancels");
  }
  const kept = removed.size ? trades.filter((t) => !removed.has(t)) : trades;

  // Units held per (account, symbol) as the events come, for the split ratio of a change in units.
  const keptByTime = byTime.filter((t) => !removed.has(t));
  const held = new Map<string, number>();
  let next = 0;
  const heldAt = (account: string, symbol: string, time: string) => {
    // Trades strictly before: at one instant a split comes before the trades (docs/GRADING.md §1).
    while (next < keptByTime.length && keptByTime[next]!.time < time) {
      const t = keptByTime[next++]!;
      const key = `${t.account}|${t.symbol}`;
      held.set(key, (held.get(key) ?? 0) + (t.side === "buy" ? t.quantity : -t.quantity));
    }
    return held.get(`${account}|${symbol}`) ?? 0;
  };

  const events: LedgerEvent[] = [];
  for (const e of ordered) {
    const id = `${e.account}:${e.externalId}`;
    switch (e.kind) {
      case "income": {
        if (e.data.quantity !== undefined) {
          // In kind (an airdrop): the engine counts it at no more than a trusted price (DECISIONS 212).
          const quantity = num(e.data.quantity);
          const price = num(e.data.price);
          const source = str(e.data.source);
          // How far the source vouches for the price (DECISIONS 219): from 0.8 the income counts at it.
          const c = e.data.confidence;
          const confidence = typeof c === "number" && c >= 0 && c <= 1 ? { confidence: c } : {};
          if (e.symbol && quantity > 0 && price >= 0)
            events.push({
              id,
              time: e.time,
              kind: "income",
              account: e.account,
              symbol: e.symbol,
              quantity,
              price,
              ...(source ? { source } : {}),
              ...confidence,
              ...(e.currency ? { currency: e.currency } : {}),
            });
          else skip("income in kind without its quantity");
          break;
        }
        const amount = num(e.data.amount);
        if (amount > 0)
          events.push({
            id,
            time: e.time,
            kind: "income",
            account: e.account,
            ...(e.symbol ? { symbol: e.symbol } : {}),
            amount,
            ...(e.currency ? { currency: e.currency } : {}),
          });
        else skip("income without an amount");
        break;
      }
      case "fee": {
        if (e.data.quantity !== undefined) {
          // Paid in kind (a wallet's gas). Units whose price was not known leave as a sale at 0:
          // equity falls by their value all the same, as a loss of their cost rather than a fee.
          const quantity = num(e.data.quantity);
          const price = e.data.price === undefined ? 0 : num(e.data.price);
          if (e.symbol && quantity > 0 && price >= 0)
            events.push({
              id,
              time: e.time,
              kind: "fee",
              account: e.account,
              symbol: e.symbol,
              quantity,
              price,
              ...(e.currency ? { currency: e.currency } : {}),
            });
          else skip("fee in kind without its quantity");
          break;
        }
        const amount = num(e.data.amount);
        if (amount > 0)
          events.push({
            id,
            time: e.time,
            kind: "fee",
            account: e.account,
            amount,
            ...(e.currency ? { currency: e.currency } : {}),
          });
        else skip("fee without an amount");
        break;
      }
      case "shares": {
        // A split or stock distribution stated as the units it adds (or removes).
        const delta = num(e.data.quantity);
        const before = e.symbol ? heldAt(e.account, e.symbol, e.time) : 0;
        if (e.symbol && before > 0 && before + delta > 0) {
          events.push({
            id,
            time: e.time,
            kind: "split",
            symbol: e.symbol,
            account: e.account,
            ratio: (before + delta) / before,
          });
          const key = `${e.account}|${e.symbol}`;
          held.set(key, before + delta);
        } else skip(`${str(e.data.reason) ?? "split"} of a position not held`);
        break;
      }
      case "spinoff": {
        // The parent is not named by the provider: the new shares arrive at no cost, and the value
        // they take moves from the parent's price to theirs.
        const quantity = num(e.data.quantity);
        if (e.symbol && quantity > 0)
          events.push({
            id,
            time: e.time,
            kind: "receive",
            account: e.account,
            symbol: e.symbol,
            quantity,
            price: 0,
            assetClass: "stock",
          });
        else skip("spin off without new shares");
        break;
      }
      case "merger": {
        const to = str(e.data.to);
        const ratio = num(e.data.ratio);
        if (e.symbol && to && ratio > 0) events.push({ id, time: e.time, kind: "rename", from: e.symbol, to, ratio });
        else skip("merger without its terms");
        break;
      }
      case "receive":
      case "send": {
        // A wallet's tokens from or to outside, at their USD price then (deposit / withdrawal in kind).
        const quantity = num(e.data.quantity);
        const price = num(e.data.price);
        if (e.symbol && quantity > 0 && price >= 0)
          events.push({
            id,
            time: e.time,
            kind: e.kind,
            account: e.account,
            symbol: e.symbol,
            quantity,
            price,
            assetClass: "crypto",
            ...(e.currency ? { currency: e.currency } : {}),
          });
        else skip(`${e.kind} without its quantity or price`);
        break;
      }
      case "wrap": {
        // Wrapping within the wallet: its lots arrive as the other symbol, cost and dates kept.
        const quantity = num(e.data.quantity);
        const toSymbol = str(e.data.toSymbol);
        const toQuantity = e.data.toQuantity === undefined ? quantity : num(e.data.toQuantity);
        if (e.symbol && toSymbol && toSymbol !== e.symbol && quantity > 0 && toQuantity > 0)
          events.push({
            id,
            time: e.time,
            kind: "transfer",
            from: e.account,
            to: e.account,
            symbol: e.symbol,
            quantity,
            toSymbol,
            toQuantity,
          });
        else skip("wrap without its quantities");
        break;
      }
      case "fx": {
        // A currency exchange: the engine moves both cash balances and revalues them (DECISIONS 206).
        const sell = str(e.data.sell);
        const buy = str(e.data.buy);
        const sellAmount = num(e.data.sellAmount);
        const buyAmount = num(e.data.buyAmount);
        const fee = e.data.fee === undefined ? 0 : num(e.data.fee);
        if (sell && buy && sell !== buy && sellAmount > 0 && buyAmount > 0 && fee >= 0)
          events.push({
            id,
            time: e.time,
            kind: "fx",
            account: e.account,
            sell,
            sellAmount,
            buy,
            buyAmount,
            ...(fee > 0 ? { fee } : {}),
          });
        else skip("currency exchange without its amounts");
        break;
      }
      case "cancel":
        break;
      default:
        skip(`event ${e.kind}`);
    }
  }
  return { trades: kept, events, skipped };
}

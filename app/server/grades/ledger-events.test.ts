import { describe, expect, it } from "vitest";
import { grade, parseLedger } from "~/grading";
import { resolveEvents, type StoredEvent } from "./ledger-events";

const trade = (
  id: string,
  time: string,
  side: "buy" | "sell",
  quantity: number,
  price: number,
  symbol = "NFLX",
  fee = 0,
) => ({
  id: `1:${id}`,
  account: "1",
  time,
  symbol,
  assetClass: "stock" as const,
  side,
  quantity,
  price,
  fee,
});
const ev = (
  externalId: string,
  time: string,
  kind: string,
  symbol: string | null,
  data: Record<string, unknown>,
): StoredEvent => ({ account: "1", externalId, time, kind, symbol, data });

describe("resolveEvents", () => {
  it("makes a change in units a split by what was held then, so a 10:1 split is no loss", () => {
    const trades = [
      trade("b", "2025-10-01T20:00:00.000Z", "buy", 10, 1200),
      trade("s", "2025-11-20T20:00:00.000Z", "sell", 100, 125),
    ];
    const { events, skipped } = resolveEvents(trades, [
      ev("sp", "2025-11-17T20:00:00.000Z", "shares", "NFLX", { quantity: 90, reason: "split" }),
    ]);
    expect(skipped).toEqual({});
    expect(events).toEqual([
      { id: "1:sp", time: "2025-11-17T20:00:00.000Z", kind: "split", symbol: "NFLX", account: "1", ratio: 10 },
    ]);
    const parsed = parseLedger({ cashFlows: [{ account: "1", time: "2025-09-01", amount: 20_000 }], trades, events });
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const m = grade(parsed.ledger).metrics;
    expect(m.realizedPnl).toBeCloseTo(500, 9); // 100 × (125 − 120)
    expect(m.roundTrips).toBe(1);
  });

  it("removes the earliest trade a cancel matches (account, symbol, quantity, amount), once; an unmatched cancel is counted", () => {
    const a = trade("a", "2025-06-01T20:00:00.000Z", "buy", 5, 60, "KO", 1);
    const b = trade("b", "2025-06-03T20:00:00.000Z", "buy", 5, 60, "KO", 1);
    const c = trade("c", "2025-06-04T20:00:00.000Z", "buy", 7, 60, "KO");
    const out = resolveEvents(
      [c, b, a],
      [
        ev("x1", "2025-06-05T20:00:00.000Z", "cancel", "KO", { quantity: 5, amount: 301 }),
        ev("x2", "2025-06-06T20:00:00.000Z", "cancel", "KO", { quantity: 5, amount: 301 }),
        ev("x3", "2025-06-07T20:00:00.000Z", "cancel", "KO", { quantity: 5, amount: 301 }),
        ev("x4", "2025-05-01T20:00:00.000Z", "cancel", "KO", { quantity: 7, amount: 420 }),
      ],
    );
    expect(out.trades).toEqual([c]);
    // x3 found nothing left; x4 comes before the trade it would match.
    expect(out.skipped).toEqual({ "cancel without the transaction it cancels": 2 });
  });

  it("matches a cancel's quantity relatively, never within a floor of units", () => {
    // v2 took any two quantities under 1e-9 units for equal: a cancel of 1e-12 removed a 5e-10 trade.
    const a = trade("a", "2025-06-01T20:00:00.000Z", "buy", 5e-10, 60, "BTC");
    const b = trade("b", "2025-06-02T20:00:00.000Z", "buy", 1e-12, 60, "BTC");
    const out = resolveEvents(
      [a, b],
      [ev("x", "2025-06-05T20:00:00.000Z", "cancel", "BTC", { quantity: 1e-12, amount: 0 })],
    );
    expect(out.trades).toEqual([a]);
  });

  it("maps income, fees, spin-offs and mergers; a split of nothing held is counted", () => {
    const out = resolveEvents(
      [trade("b", "2025-06-01T20:00:00.000Z", "buy", 8, 210, "HON")],
      [
        ev("d", "2025-07-01T20:00:00.000Z", "income", "HON", { amount: 9.04 }),
        ev("f", "2025-07-02T20:00:00.000Z", "fee", null, { amount: 25 }),
        ev("so", "2025-10-30T20:00:00.000Z", "spinoff", "SOLS", { quantity: 2, price: 0 }),
        ev("m", "2025-11-03T20:00:00.000Z", "merger", "OLD", { to: "NEW", ratio: 0.5 }),
        ev("sp", "2025-11-04T20:00:00.000Z", "shares", "ZZZ", { quantity: 10, reason: "stock distribution" }),
      ],
    );
    expect(out.events.map((e) => e.kind)).toEqual(["income", "fee", "receive", "rename"]);
    expect(out.events[2]).toMatchObject({ symbol: "SOLS", quantity: 2, price: 0, account: "1" });
    expect(out.events[3]).toMatchObject({ from: "OLD", to: "NEW", ratio: 0.5 });
    expect(out.skipped).toEqual({ "stock distribution of a position not held": 1 });
  });

  it("maps a fee paid in kind (a wallet's gas), at 0 when its price was not known, and grades it without a gap", () => {
    const buy = { ...trade("b", "2025-06-01T20:00:00.000Z", "buy", 1, 2000, "ETH"), assetClass: "crypto" as const };
    const out = resolveEvents(
      [buy],
      [
        ev("g1", "2025-06-02T20:00:00.000Z", "fee", "ETH", { symbol: "ETH", quantity: 0.002, price: 2100 }),
        ev("g2", "2025-06-03T20:00:00.000Z", "fee", "ETH", { symbol: "ETH", quantity: 0.001 }),
        ev("g3", "2025-06-04T20:00:00.000Z", "fee", "ETH", { symbol: "ETH", quantity: 0 }),
      ],
    );
    expect(out.events).toEqual([
      {
        id: "1:g1",
        time: "2025-06-02T20:00:00.000Z",
        kind: "fee",
        account: "1",
        symbol: "ETH",
        quantity: 0.002,
        price: 2100,
      },
      {
        id: "1:g2",
        time: "2025-06-03T20:00:00.000Z",
        kind: "fee",
        account: "1",
        symbol: "ETH",
        quantity: 0.001,
        price: 0,
      },
    ]);
    expect(out.skipped).toEqual({ "fee in kind without its quantity": 1 });
    const parsed = parseLedger({
      cashFlows: [{ account: "1", time: "2025-05-31T20:00:00.000Z", amount: 2000 }],
      trades: out.trades,
      events: out.events,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const e = grade(parsed.ledger);
    expect(e.warnings.filter((w) => w.startsWith("Data gap"))).toEqual([]);
    expect(e.metrics.withdrawals).toBe(0);
    expect(e.metrics.accountFees).toBeCloseTo(4.2, 9);
  });

  it("maps an airdrop claimed as income in kind: counted at 0 without a trusted price, its sale realized", () => {
    const sale = { ...trade("s", "2025-06-10T20:00:00.000Z", "sell", 100, 3, "DROP"), assetClass: "crypto" as const };
    const out = resolveEvents(
      [sale],
      [
        ev("a1", "2025-06-02T20:00:00.000Z", "income", "DROP", {
          symbol: "DROP",
          quantity: 100,
          price: 5,
          source: "defillama",
        }),
        ev("a2", "2025-06-03T20:00:00.000Z", "income", "DROP", { symbol: "DROP", quantity: 0, price: 5 }),
      ],
    );
    expect(out.events).toEqual([
      {
        id: "1:a1",
        time: "2025-06-02T20:00:00.000Z",
        kind: "income",
        account: "1",
        symbol: "DROP",
        quantity: 100,
        price: 5,
        source: "defillama",
      },
    ]);
    expect(out.skipped).toEqual({ "income in kind without its quantity": 1 });
    const parsed = parseLedger({
      cashFlows: [{ account: "1", time: "2025-06-01T20:00:00.000Z", amount: 1000 }],
      trades: out.trades,
      events: out.events,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const e = grade(parsed.ledger);
    // Not a deposit, and worth nothing until sold: the sale's 300 is the gain.
    expect(e.metrics.deposits).toBe(1000);
    expect(e.metrics.income).toBe(0);
    expect(e.metrics.realizedPnl).toBeCloseTo(300, 9);
    expect(e.warnings.filter((w) => w.startsWith("Data gap"))).toEqual([]);
  });

  it("counts an airdrop its source vouches for at its price then (DECISIONS 219): income now, the sale's gain over it", () => {
    const sale = { ...trade("s", "2025-06-10T20:00:00.000Z", "sell", 100, 3, "ARB"), assetClass: "crypto" as const };
    const claim = { symbol: "ARB", quantity: 100, price: 5, source: "defillama" };
    const read = (data: Record<string, unknown>) => {
      const out = resolveEvents([sale], [ev("a1", "2025-06-02T20:00:00.000Z", "income", "ARB", data)]);
      const parsed = parseLedger({
        cashFlows: [{ account: "1", time: "2025-06-01T20:00:00.000Z", amount: 1000 }],
        trades: out.trades,
        events: out.events,
      });
      if (!parsed.ok) throw new Error(parsed.problems.join("; "));
      return { events: out.events, metrics: grade(parsed.ledger).metrics };
    };
    const vouched = read({ ...claim, confidence: 0.99 });
    expect(vouched.events).toMatchObject([{ kind: "income", symbol: "ARB", confidence: 0.99 }]);
    // Income of 100 × 5 = 500 when claimed; sold at 3 it realizes 100 × (3 − 5) = −200.
    expect(vouched.metrics.income).toBeCloseTo(500, 9);
    expect(vouched.metrics.realizedPnl).toBeCloseTo(-200, 9);
    // A thin confidence, or one out of range, is held as before: nothing until the sale realizes 300.
    for (const confidence of [0.5, 7]) {
      const held = read({ ...claim, confidence });
      expect(held.metrics.income).toBe(0);
      expect(held.metrics.realizedPnl).toBeCloseTo(300, 9);
    }
  });

  it("makes a wrap a transfer within the account to the wrapped symbol: cost and dates kept, no round trip", () => {
    const crypto = (t: ReturnType<typeof trade>) => ({ ...t, assetClass: "crypto" as const });
    const out = resolveEvents(
      [
        crypto(trade("b", "2025-06-01T20:00:00.000Z", "buy", 2, 2000, "ETH")),
        crypto(trade("s", "2025-08-01T20:00:00.000Z", "sell", 2, 3000, "WETH")),
      ],
      [
        ev("w", "2025-07-01T20:00:00.000Z", "wrap", "ETH", {
          symbol: "ETH",
          quantity: 2,
          toSymbol: "WETH",
          toQuantity: 2,
        }),
      ],
    );
    expect(out.events).toEqual([
      {
        id: "1:w",
        time: "2025-07-01T20:00:00.000Z",
        kind: "transfer",
        from: "1",
        to: "1",
        symbol: "ETH",
        quantity: 2,
        toSymbol: "WETH",
        toQuantity: 2,
      },
    ]);
    const parsed = parseLedger({
      cashFlows: [{ account: "1", time: "2025-05-31T20:00:00.000Z", amount: 4000 }],
      trades: out.trades,
      events: out.events,
    });
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const e = grade(parsed.ledger);
    // One round trip from the ETH bought in June to the WETH sold in August, at June's cost.
    expect(e.metrics.roundTrips).toBe(1);
    expect(e.metrics.realizedPnl).toBeCloseTo(2000, 9);
    expect(e.warnings.filter((w) => w.startsWith("Data gap"))).toEqual([]);
  });
});

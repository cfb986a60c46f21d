// Income received in kind and wrapping (v3.4, issue 29 point 4). An airdrop or a staking reward is
// income at its trusted value (0 without one), not a deposit; wrapping (ETH → WETH) and a bridge's
// token keep cost and dates. Figures here are worked by hand in the comments.
import { describe, expect, it } from "vitest";
import { grade, parseLedger, type Evaluation, type LedgerInput } from "./index";
import { validateInPlace } from "./validate";

const day = (d: number) => new Date(Date.UTC(2024, 0, 1, 12) + d * 86_400_000).toISOString();

function run(input: LedgerInput): Evaluation {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger);
}

const buy = (id: string, d: number, symbol: string, quantity: number, price: number, account = "w") => ({
  id,
  account,
  time: day(d),
  symbol,
  assetClass: "crypto" as const,
  side: "buy" as const,
  quantity,
  price,
});
const sell = (id: string, d: number, symbol: string, quantity: number, price: number, account = "w") => ({
  ...buy(id, d, symbol, quantity, price, account),
  side: "sell" as const,
});

describe("income received in kind", () => {
  it("is income at its vouched value, never a deposit, and the units keep that cost", () => {
    // 1,000 in; a reward of 2 SOL at 100 (confidence 0.9): income 200, then the 2 SOL sell at 110.
    const e = run({
      asOf: day(5),
      cashFlows: [{ account: "w", time: day(0), amount: 1000 }],
      trades: [sell("s", 4, "SOL", 2, 110)],
      events: [
        {
          id: "r",
          time: day(2),
          kind: "income",
          account: "w",
          symbol: "SOL",
          quantity: 2,
          price: 100,
          confidence: 0.9,
        },
      ],
    });
    const m = e.metrics;
    expect(m.income).toBeCloseTo(200, 9);
    expect(m.deposits).toBe(1000);
    expect(m.realizedPnl).toBeCloseTo(20, 9); // (110 − 100) × 2
    expect(m.cash).toBeCloseTo(1220, 9);
    expect(m.twr!).toBeCloseTo(0.22, 9);
    expect(m.positionsAtCost).toBeUndefined();
    // The same units as a receive are a deposit: the TWR leaves their value out.
    const asDeposit = run({
      asOf: day(5),
      cashFlows: [{ account: "w", time: day(0), amount: 1000 }],
      trades: [sell("s", 4, "SOL", 2, 110)],
      events: [{ id: "r", time: day(2), kind: "receive", account: "w", symbol: "SOL", quantity: 2, price: 100 }],
    });
    expect(asDeposit.metrics.deposits).toBe(1200);
    expect(asDeposit.metrics.twr!).toBeLessThan(m.twr! - 0.2);
  });

  it("counts an unvouched value at no more than the trusted price, and 0 without one, and says so", () => {
    // A token the trader made up, "airdropped" at 1,000 a unit without a confidence, then marked
    // there by a source that does not vouch for it: income 0, the position worth 0.
    const base: LedgerInput = {
      asOf: day(30),
      cashFlows: [{ account: "w", time: day(0), amount: 1000 }],
      trades: [buy("b", 1, "ETH", 0.4, 2000), sell("s", 20, "ETH", 0.4, 2100)],
    };
    const plain = run(base);
    const pumped = run({
      ...base,
      events: [{ id: "a", time: day(2), kind: "income", account: "w", symbol: "MINE", quantity: 100, price: 1000 }],
      prices: [10, 15, 25].map((d) => ({ symbol: "MINE", time: day(d), price: 1000, confidence: 0.3 })),
    });
    expect(pumped.metrics.income).toBe(0);
    expect(pumped.metrics.equity).toBeCloseTo(plain.metrics.equity, 9);
    expect(pumped.metrics.twr!).toBeCloseTo(plain.metrics.twr!, 12);
    expect(pumped.score!).toBeLessThanOrEqual(plain.score! + 1e-9);
    expect(pumped.metrics.positionsAtCost).toBe(1);
    expect(pumped.warnings).toContain(
      "Data quality: 1 position valued at cost: no reliable price (MINE). A price its source does not vouch for never raises a value.",
    );
    // A reward in a coin already traded counts at the lower of its quote and the last fill.
    const reward = run({
      ...base,
      events: [{ id: "r", time: day(3), kind: "income", account: "w", symbol: "ETH", quantity: 0.1, price: 2600 }],
    });
    expect(reward.metrics.income).toBeCloseTo(200, 9); // 0.1 × min(2,600, 2,000)
    expect(reward.positions.find((p) => p.symbol === "ETH")!.quantity).toBeCloseTo(0.1, 12);
  });

  it("converts a quote in another currency at the day's rate", () => {
    const e = run({
      asOf: day(3),
      cashFlows: [{ account: "w", time: day(0), amount: 1000 }],
      trades: [],
      events: [
        {
          id: "r",
          time: day(1),
          kind: "income",
          account: "w",
          symbol: "DOT",
          quantity: 10,
          price: 5,
          currency: "EUR",
          confidence: 1,
        },
      ],
      prices: [{ symbol: "DOT", time: day(2), price: 5, confidence: 1 }],
      fxRates: { source: "test", rates: [{ currency: "EUR", time: day(0), rate: 1.1 }] },
    });
    expect(e.metrics.income).toBeCloseTo(55, 9); // 10 × 5 EUR × 1.1
  });

  it("is cash or in kind, never both nor half of one, in the parser and the fast validator alike", () => {
    const base = { trades: [] as LedgerInput["trades"] };
    const bad = [
      { id: "1", time: "2024-01-01", kind: "income", account: "w", amount: 5, symbol: "ETH", quantity: 1, price: 1 },
      { id: "1", time: "2024-01-01", kind: "income", account: "w", symbol: "ETH", quantity: 1 },
      { id: "1", time: "2024-01-01", kind: "income", account: "w", quantity: 1, price: 1 },
      { id: "1", time: "2024-01-01", kind: "income", account: "w", amount: 5, confidence: 1 },
    ];
    for (const event of bad) {
      const r = parseLedger({ ...base, events: [event] } as LedgerInput);
      expect(r.ok, JSON.stringify(event)).toBe(false);
      if (!r.ok) expect(r.problems.join("\n")).toContain("income received in kind");
      expect(validateInPlace({ ...base, events: [{ ...event }] })).toBeNull();
    }
    const good = [
      { id: "1", time: "2024-01-01", kind: "income", account: "w", symbol: "ETH", quantity: 1, price: 0 },
      {
        id: "1",
        time: "2024-01-01",
        kind: "income",
        account: "w",
        symbol: "ETH",
        quantity: 1,
        price: 9,
        confidence: 1,
      },
      { id: "1", time: "2024-01-01", kind: "income", account: "w", amount: 5, source: "broker" },
    ];
    for (const event of good) {
      expect(parseLedger({ ...base, events: [event] } as LedgerInput).ok, JSON.stringify(event)).toBe(true);
      expect(validateInPlace({ ...base, events: [{ ...event }] }), JSON.stringify(event)).not.toBeNull();
    }
  });
});

describe("wrapping and bridging", () => {
  it("keep cost and dates: one round trip from the first buy to the last sale, no P&L on the way", () => {
    // Buy 1 ETH at 2,000 on day 1, wrap it into WETH on day 5, bridge it to another chain's account
    // on day 8, sell it there on day 21 at 2,300: one round trip of 20 days, realized 300.
    const e = run({
      asOf: day(22),
      cashFlows: [{ account: "mainnet", time: day(0), amount: 2000 }],
      trades: [buy("b", 1, "ETH", 1, 2000, "mainnet"), sell("s", 21, "WETH", 1, 2300, "arbitrum")],
      events: [
        {
          id: "wrap",
          time: day(5),
          kind: "transfer",
          from: "mainnet",
          to: "mainnet",
          symbol: "ETH",
          quantity: 1,
          toSymbol: "WETH",
        },
        { id: "bridge", time: day(8), kind: "transfer", from: "mainnet", to: "arbitrum", symbol: "WETH", quantity: 1 },
      ],
    });
    const m = e.metrics;
    expect(m.realizedPnl).toBeCloseTo(300, 9);
    expect(m.roundTrips).toBe(1);
    expect(m.avgHoldingDays!).toBeCloseTo(20, 9);
    expect(m.equity).toBeCloseTo(2300, 9);
    expect(e.warnings.filter((w) => w.startsWith("Data gap"))).toEqual([]);
  });

  it("spread the cost over the units that arrive, and value them at the original's price until they have one", () => {
    // 2 BTC at 30,000 become 200 units of a token worth a hundredth each (toQuantity 200): cost 300
    // a unit; without a mark of its own the token is worth 31,000 ÷ 100 = 310, the BTC's last price.
    const e = run({
      asOf: day(10),
      cashFlows: [{ account: "w", time: day(0), amount: 60000 }],
      trades: [buy("b", 1, "BTC", 2, 30000), buy("b2", 2, "BTC", 0.001, 31000)],
      events: [
        {
          id: "wrap",
          time: day(3),
          kind: "transfer",
          from: "w",
          to: "w",
          symbol: "BTC",
          quantity: 2,
          toSymbol: "cBTC",
          toQuantity: 200,
        },
      ],
    });
    const token = e.positions.find((p) => p.symbol === "cBTC")!;
    expect(token.quantity).toBeCloseTo(200, 9);
    expect(token.mark).toBeCloseTo(310, 9);
    expect(token.unrealizedPnl).toBeCloseTo(200 * (310 - 300), 6);
    expect(e.metrics.realizedPnl).toBe(0);
    expect(e.positions.find((p) => p.symbol === "BTC")!.quantity).toBeCloseTo(0.001, 12);
  });

  it("refuses a transfer within one account that changes nothing, and a toQuantity without a toSymbol", () => {
    const base = { trades: [] as LedgerInput["trades"] };
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "w", to: "w", symbol: "ETH", quantity: 1 }, "a transfer within one account moves nothing"],
      [
        { from: "w", to: "w", symbol: "ETH", quantity: 1, toSymbol: "ETH" },
        "a transfer within one account moves nothing",
      ],
      [{ from: "w", to: "x", symbol: "ETH", quantity: 1, toQuantity: 2 }, "needs a toSymbol"],
    ];
    for (const [fields, message] of cases) {
      const event = { id: "1", time: "2024-01-01", kind: "transfer", ...fields };
      const r = parseLedger({ ...base, events: [event] } as LedgerInput);
      expect(r.ok, JSON.stringify(event)).toBe(false);
      if (!r.ok) expect(r.problems.join("\n")).toContain(message);
      expect(validateInPlace({ ...base, events: [{ ...event }] })).toBeNull();
    }
    const wrap = {
      id: "1",
      time: "2024-01-01",
      kind: "transfer",
      from: "w",
      to: "w",
      symbol: "ETH",
      quantity: 1,
      toSymbol: "WETH",
    };
    expect(parseLedger({ ...base, events: [wrap] } as LedgerInput).ok).toBe(true);
    expect(validateInPlace({ ...base, events: [{ ...wrap }] })).not.toBeNull();
  });
});

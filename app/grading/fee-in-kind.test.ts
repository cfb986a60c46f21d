// A fee paid in kind (v3.3, issue 29 point 4): gas in ETH, a trading fee in BNB. The units leave the
// position as a sale at their price, and the proceeds pay the fee: not a withdrawal.
import { describe, expect, it } from "vitest";
import { grade, parseLedger, type Evaluation, type LedgerInput } from "./index";
import { validateInPlace } from "./validate";

function run(input: LedgerInput): Evaluation {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger);
}

/** A month of a wallet holding 2 ETH that pays gas every other day, as a fee in kind or (wrongly) as a send. */
function wallet(gasAs: "fee" | "send"): LedgerInput {
  const day = (d: number) => new Date(Date.UTC(2024, 0, 1, 12) + d * 86_400_000).toISOString();
  const events: NonNullable<LedgerInput["events"]> = [];
  const prices: NonNullable<LedgerInput["prices"]> = [];
  for (let d = 2; d < 30; d++) {
    const price = 2000 * (1 + 0.01 * Math.sin(d));
    prices.push({ symbol: "ETH", time: day(d), price, confidence: 1 });
    if (d % 2 === 0)
      events.push(
        gasAs === "fee"
          ? { id: `g${d}`, time: day(d), kind: "fee", account: "w", symbol: "ETH", quantity: 0.002, price }
          : { id: `g${d}`, time: day(d), kind: "send", account: "w", symbol: "ETH", quantity: 0.002, price },
      );
  }
  return {
    asOf: day(30),
    cashFlows: [{ account: "w", time: day(0), amount: 4000 }],
    trades: [
      {
        id: "b",
        account: "w",
        time: day(1),
        symbol: "ETH",
        assetClass: "crypto",
        side: "buy",
        quantity: 2,
        price: 2000,
      },
    ],
    events,
    prices,
  };
}

describe("fees paid in kind", () => {
  it("lower the return like any fee, where gas written as a send would have lifted it", () => {
    const fee = run(wallet("fee"));
    const send = run(wallet("send"));
    // The same units leave either way.
    expect(fee.positions[0]!.quantity).toBeCloseTo(2 - 14 * 0.002, 12);
    expect(send.positions[0]!.quantity).toBeCloseTo(2 - 14 * 0.002, 12);
    // As a fee: paid out of the record, no withdrawal; as a send: a withdrawal the TWR sets aside.
    expect(fee.metrics.withdrawals).toBe(0);
    expect(fee.metrics.accountFees).toBeGreaterThan(55);
    expect(send.metrics.withdrawals).toBeCloseTo(fee.metrics.accountFees, 9);
    expect(fee.metrics.twr!).toBeLessThan(send.metrics.twr! - 0.013);
    // P&L identity: what the fees took is in totalPnl.
    const m = fee.metrics;
    expect(m.totalPnl).toBeCloseTo(m.realizedPnl + m.unrealizedPnl + m.income - m.accountFees, 9);
    expect(m.equity - m.deposits).toBeCloseTo(m.totalPnl, 9);
  });

  it("cannot pay units the account does not hold: the excess is a data gap, said", () => {
    const e = run({
      cashFlows: [{ account: "w", time: "2024-01-01T00:00:00Z", amount: 100 }],
      trades: [
        {
          id: "b",
          account: "w",
          time: "2024-01-02T00:00:00Z",
          symbol: "SOL",
          assetClass: "crypto",
          side: "buy",
          quantity: 1,
          price: 100,
        },
      ],
      events: [
        {
          id: "gas",
          time: "2024-01-03T00:00:00Z",
          kind: "fee",
          account: "w",
          symbol: "SOL",
          quantity: 1.5,
          price: 100,
        },
      ],
    });
    expect(e.warnings).toContain(
      "Data gap: event gas pays 0.5 SOL more than account w held; the excess is left out of P&L and flows.",
    );
    expect(e.metrics.accountFees).toBeCloseTo(100, 9);
  });

  it("is cash or in kind, never both nor half of one, in the parser and the fast validator alike", () => {
    const base = { trades: [] as LedgerInput["trades"] };
    const bad = [
      { id: "1", time: "2024-01-01", kind: "fee", account: "w", amount: 5, symbol: "ETH", quantity: 1, price: 1 },
      { id: "1", time: "2024-01-01", kind: "fee", account: "w", symbol: "ETH", quantity: 1 },
      { id: "1", time: "2024-01-01", kind: "fee", account: "w" },
    ];
    for (const event of bad) {
      const r = parseLedger({ ...base, events: [event] } as LedgerInput);
      expect(r.ok, JSON.stringify(event)).toBe(false);
      if (!r.ok) expect(r.problems.join("\n")).toContain("a fee paid in kind");
      expect(validateInPlace({ ...base, events: [{ ...event }] })).toBeNull();
    }
    const good = { id: "1", time: "2024-01-01", kind: "fee", account: "w", symbol: "ETH", quantity: 1, price: 0 };
    expect(parseLedger({ ...base, events: [good] } as LedgerInput).ok).toBe(true);
    expect(validateInPlace({ ...base, events: [{ ...good }] })).not.toBeNull();
  });
});

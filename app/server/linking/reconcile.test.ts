import { describe, expect, it } from "vitest";
import type { Ledger } from "~/grading";
import { positionDisagreements, positionsOf } from "./reconcile";

const trade = (
  time: string,
  symbol: string,
  side: "buy" | "sell",
  quantity: number,
  account = "1",
): Ledger["trades"][number] => ({
  id: `${account}:${time}:${symbol}:${side}`,
  account,
  time,
  symbol,
  assetClass: "stock",
  side,
  quantity,
  price: 10,
  fee: 0,
});

describe("positionsOf", () => {
  it("replays trades, a split before same-instant trades, a rename and a receipt, for one account only", () => {
    const ledger = {
      trades: [
        trade("2025-01-02T20:00:00.000Z", "NFLX", "buy", 3),
        trade("2025-02-03T20:00:00.000Z", "NFLX", "sell", 10), // after the 10:1 split of the same day
        trade("2025-01-02T20:00:00.000Z", "OLD", "buy", 4),
        trade("2025-01-02T20:00:00.000Z", "AAPL", "buy", 7, "2"),
      ],
      events: [
        { id: "s", time: "2025-02-03T20:00:00.000Z", kind: "split" as const, symbol: "NFLX", ratio: 10, account: "1" },
        { id: "r", time: "2025-03-01T20:00:00.000Z", kind: "rename" as const, from: "OLD", to: "NEW", ratio: 1.5 },
        {
          id: "x",
          time: "2025-03-02T20:00:00.000Z",
          kind: "receive" as const,
          account: "1",
          symbol: "SOLS",
          quantity: 2,
          price: 0,
        },
      ],
    };
    expect(Object.fromEntries(positionsOf(ledger, "1"))).toEqual({ NFLX: 20, NEW: 6, SOLS: 2 });
    expect(Object.fromEntries(positionsOf(ledger, "2"))).toEqual({ AAPL: 7 });
  });
});

describe("positionDisagreements", () => {
  it("names each symbol held in another quantity or on one side only, ignoring rounding and closed positions", () => {
    const computed = new Map([
      ["AAPL", 10],
      ["MSFT", 5.0000000001],
      ["TSLA", 0],
      ["KO", 3],
    ]);
    const reported = new Map([
      ["AAPL", 12],
      ["MSFT", 5],
      ["NVDA", 1],
    ]);
    expect(positionDisagreements(computed, reported)).toEqual([
      { symbol: "AAPL", computed: 10, reported: 12 },
      { symbol: "KO", computed: 3, reported: 0 },
      { symbol: "NVDA", computed: 0, reported: 1 },
    ]);
    expect(positionDisagreements(new Map([["A", 1]]), new Map([["A", 1]]))).toEqual([]);
  });
});

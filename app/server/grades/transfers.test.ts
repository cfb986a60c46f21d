import { describe, expect, it } from "vitest";
import { grade, listRoundTrips, parseLedger, type Ledger, type LedgerEvent } from "~/grading";
import { moveFactsOf, pairTransfers } from "./transfers";

// Moves between the trader's own accounts (issue 31, DECISIONS 207). "x" is an exchange, "w" a
// wallet at 0xabc…, "b" a broker (not a coin account).
const WALLET = "0x00000000000000000000000000000000000abc01";
const accounts = new Map<string, string | null>([
  ["x", null],
  ["w", WALLET.toLowerCase()],
]);

const buy = (account: string, time: string, quantity: number, price: number, id = `${account}-buy-${time}`) => ({
  id,
  account,
  time,
  symbol: "ETH",
  assetClass: "crypto" as const,
  side: "buy" as const,
  quantity,
  price,
  fee: 0,
});
const sell = (account: string, time: string, quantity: number, price: number) => ({
  ...buy(account, time, quantity, price, `${account}-sell-${time}`),
  side: "sell" as const,
});
const move = (kind: "receive" | "send", account: string, time: string, quantity: number, price: number, id?: string) =>
  ({
    id: id ?? `${account}:${kind}-${time}`,
    time,
    kind,
    account,
    symbol: "ETH",
    quantity,
    price,
    assetClass: "crypto",
  }) as LedgerEvent;

describe("pairTransfers", () => {
  // Bought 1 ETH at 2,000 on the exchange, withdrew 0.1 to the wallet 10 minutes apart, sold it there at 3,000.
  const withdrawal: Pick<Ledger, "trades" | "cashFlows" | "events"> = {
    trades: [buy("x", "2025-01-02T00:00:00Z", 1, 2000), sell("w", "2025-03-01T00:00:00Z", 0.1, 3000)],
    cashFlows: [{ account: "x", time: "2025-01-01T00:00:00Z", amount: 2000 }],
    events: [
      move("send", "x", "2025-02-01T12:00:00Z", 0.1, 2500),
      move("receive", "w", "2025-02-01T12:10:00Z", 0.1, 2500),
    ],
  };

  it("reads a withdrawal into the linked wallet as a transfer: no P&L at the move, the cost goes with the coins", () => {
    const paired = pairTransfers(withdrawal, accounts);
    expect(paired.transfers).toBe(1);
    expect(paired.events).toEqual([
      {
        id: "x:send-2025-02-01T12:00:00Z>w:receive-2025-02-01T12:10:00Z",
        time: "2025-02-01T12:00:00Z",
        kind: "transfer",
        from: "x",
        to: "w",
        symbol: "ETH",
        quantity: 0.1,
      },
    ]);
    // Graded: the wallet's sale realizes 0.1 × (3,000 − 2,000) = 100 against the exchange's cost,
    // and the round trip is held from the exchange's buy (58 days). Read apart, the same 100 was
    // split at the move (50 there, 50 on the sale) and the trip ran from the move (28 days).
    const parsed = parseLedger({ ...withdrawal, ...paired, asOf: "2025-03-02T00:00:00Z" });
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const graded = grade(parsed.ledger);
    expect(graded.metrics.realizedPnl).toBeCloseTo(100, 9);
    expect(
      listRoundTrips(parsed.ledger).map((t) => [
        t.account,
        t.symbol,
        t.openTime.slice(0, 10),
        Math.round(t.holdingDays * 1e9) / 1e9,
      ]),
    ).toEqual([["w", "ETH", "2025-01-02", 58]]);
  });

  it("pairs by the chain transaction when both sides name it, and keeps what the way took as a send", () => {
    // The wallet sent 1 ETH; the exchange credited 0.9 (a fee in kind larger than any tolerance).
    const ledger = {
      trades: [buy("w", "2025-01-02T00:00:00Z", 2, 2000)],
      cashFlows: [],
      events: [
        move("send", "w", "2025-02-01T00:00:00Z", 1, 2500),
        move("receive", "x", "2025-02-03T00:00:00Z", 0.9, 2600),
      ],
    };
    expect(pairTransfers(ledger, accounts).transfers).toBe(0);
    const facts = new Map([
      ["w:send-2025-02-01T00:00:00Z", { txId: "0xaa" }],
      ["x:receive-2025-02-03T00:00:00Z", { txId: "0xaa", address: WALLET.toLowerCase() }],
    ]);
    const paired = pairTransfers(ledger, accounts, facts);
    expect(paired.events).toEqual([
      expect.objectContaining({ kind: "transfer", from: "w", to: "x", quantity: 0.9, time: "2025-02-01T00:00:00Z" }),
      { ...ledger.events[0], quantity: expect.closeTo(0.1, 12) },
    ]);
    // A different transaction on either side: not this move.
    const other = new Map([...facts, ["x:receive-2025-02-03T00:00:00Z", { txId: "0xbb" }]]);
    expect(pairTransfers(ledger, accounts, other).transfers).toBe(0);
  });

  it("refuses a move whose record names another address than the wallet's", () => {
    const facts = new Map([["x:send-2025-02-01T12:00:00Z", { address: "0x00000000000000000000000000000000000def02" }]]);
    expect(pairTransfers(withdrawal, accounts, facts).transfers).toBe(0);
    const same = new Map([["x:send-2025-02-01T12:00:00Z", { address: WALLET.toLowerCase() }]]);
    expect(pairTransfers(withdrawal, accounts, same).transfers).toBe(1);
  });

  it("leaves moves apart outside the window, within one account, between non-coin accounts, or of other amounts", () => {
    const apart = (events: LedgerEvent[], acc = accounts) => pairTransfers({ ...withdrawal, events }, acc).transfers;
    expect(
      apart([move("send", "x", "2025-02-01T00:00:00Z", 0.1, 1), move("receive", "w", "2025-02-02T00:00:01Z", 0.1, 1)]),
    ).toBe(0);
    expect(
      apart([
        move("send", "x", "2025-02-01T00:00:00Z", 0.1, 1),
        move("receive", "x", "2025-02-01T00:10:00Z", 0.1, 1, "x:r"),
      ]),
    ).toBe(0);
    expect(
      apart([
        move("send", "x", "2025-02-01T00:00:00Z", 0.1, 1),
        move("receive", "w", "2025-02-01T00:10:00Z", 0.097, 1),
      ]),
    ).toBe(0);
    expect(
      apart([
        move("send", "x", "2025-02-01T00:00:00Z", 0.1, 1),
        move("receive", "w", "2025-02-01T00:10:00Z", 0.1001, 1),
      ]),
    ).toBe(0);
    expect(apart(withdrawal.events as LedgerEvent[], new Map([["x", null]]))).toBe(0);
    // Within what the way takes (2 %), an hour of clocks disagreeing.
    expect(
      apart([
        move("send", "x", "2025-02-01T01:00:00Z", 0.1, 1),
        move("receive", "w", "2025-02-01T00:10:00Z", 0.099, 1),
      ]),
    ).toBe(1);
  });

  it("moves only what the sender holds: the rest still arrives from outside", () => {
    const ledger = {
      trades: [buy("x", "2025-01-02T00:00:00Z", 0.04, 2000)],
      cashFlows: [],
      events: withdrawal.events,
    };
    const paired = pairTransfers(ledger, accounts);
    expect(paired.events).toEqual([
      expect.objectContaining({ kind: "transfer", quantity: 0.04 }),
      { ...withdrawal.events[1], quantity: expect.closeTo(0.06, 12) },
    ]);
    // Nothing held at all: both stay as they were.
    expect(pairTransfers({ ...ledger, trades: [] }, accounts).events).toEqual(withdrawal.events);
  });

  it("leaves a stablecoin move between two coin accounts out on both sides, and a broker's flows alone", () => {
    const flows = [
      { account: "w", time: "2025-01-01T00:00:00Z", amount: 10_000 },
      { account: "w", time: "2025-01-02T00:00:00Z", amount: -10_000 },
      { account: "x", time: "2025-01-02T02:00:00Z", amount: 9_990 },
      { account: "b", time: "2025-01-02T01:00:00Z", amount: 5_000 },
      { account: "b", time: "2025-01-02T01:30:00Z", amount: -9_995 },
    ];
    const paired = pairTransfers({ trades: [], cashFlows: flows, events: [] }, accounts);
    expect(paired.transfers).toBe(1);
    expect(paired.cashFlows).toEqual([
      flows[0],
      { account: "w", time: "2025-01-02T00:00:00Z", amount: -10 },
      flows[3],
      flows[4],
    ]);
    // The exchange valued its USDT at 1.0003: the excess of its deposit stays a deposit.
    const dearer = flows.map((f, i) => (i === 2 ? { ...f, amount: 10_003 } : f));
    expect(pairTransfers({ trades: [], cashFlows: dearer, events: [] }, accounts).cashFlows).toEqual([
      flows[0],
      { account: "x", time: "2025-01-02T02:00:00Z", amount: 3 },
      flows[3],
      flows[4],
    ]);
  });

  it("gives the same answer whatever the order of its input", () => {
    const events = [
      move("send", "x", "2025-02-01T12:00:00Z", 0.1, 2500),
      move("receive", "w", "2025-02-01T12:10:00Z", 0.1, 2500),
      move("receive", "w", "2025-02-01T12:05:00Z", 0.1, 2500, "w:early"),
      move("send", "x", "2025-02-01T12:20:00Z", 0.1, 2500, "x:late"),
    ];
    const sorted = (e: LedgerEvent[]) => [...e].sort((a, b) => (a.id < b.id ? -1 : 1));
    const a = pairTransfers({ ...withdrawal, events }, accounts);
    const b = pairTransfers(
      { ...withdrawal, trades: [...withdrawal.trades].reverse(), events: [...events].reverse() },
      accounts,
    );
    expect(sorted(b.events)).toEqual(sorted(a.events));
    expect(a.transfers).toBe(2);
  });
});

describe("moveFactsOf", () => {
  it("reads the transaction and address stored moves name, EVM ones in lower case", () => {
    const facts = moveFactsOf([
      {
        account: "1",
        externalId: "binance:d:9",
        time: "t",
        kind: "receive",
        symbol: "ETH",
        data: { txId: "0xAB", address: WALLET },
      },
      { account: "2", externalId: "sig:0", time: "t", kind: "send", symbol: "SOL", data: { txId: "5KtPn1" } },
      { account: "2", externalId: "f", time: "t", kind: "fee", symbol: null, data: { txId: "0xcd" } },
    ]);
    expect([...facts]).toEqual([
      ["1:binance:d:9", { txId: "0xab", address: WALLET.toLowerCase() }],
      ["2:sig:0", { txId: "5KtPn1" }],
    ]);
  });
});

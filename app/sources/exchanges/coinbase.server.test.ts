import { describe, expect, it } from "vitest";
import type { StoredPage } from "../exchange.server";
import { coinbaseAccountTasks, mapCoinbase, type CoinbaseTransaction } from "./coinbase.server";

const T = "2026-03-01T10:00:00Z";
const tx = (over: Partial<CoinbaseTransaction>): CoinbaseTransaction => ({
  id: "t1",
  type: "send",
  status: "completed",
  amount: { amount: "0.5", currency: "ETH" },
  native_amount: { amount: "1500.00", currency: "USD" },
  created_at: T,
  ...over,
});
const prices = (asset: string) => ({ USDC: 1, ETH: 3_000, BTC: 60_000 })[asset];
const page = (...rows: CoinbaseTransaction[]): StoredPage => ({ task: { stream: "transactions", symbol: "a" }, rows });

describe("Coinbase's v2 transactions", () => {
  it("asks one transactions stream per account listed, each once", () => {
    const pages: StoredPage[] = [
      {
        task: { stream: "accounts" },
        rows: [
          { id: "a1", currency: { code: "BTC" } },
          { id: "a2", currency: "USD" },
        ],
      },
      { task: { stream: "accounts", cursor: "a2" }, rows: [{ id: "a2", currency: "USD" }] },
    ];
    expect(coinbaseAccountTasks(pages)).toEqual([
      { stream: "transactions", symbol: "a1" },
      { stream: "transactions", symbol: "a2" },
    ]);
  });

  it("maps a coin received as a receive in kind naming its hash and sender, and a send with its fee sold", () => {
    const { batch, skipped } = mapCoinbase(
      [
        page(
          tx({ network: { hash: "0xabc" }, from: { resource: "ethereum_address", address: "0xWALLET" } }),
          tx({
            id: "t2",
            amount: { amount: "-0.101", currency: "ETH" },
            network: {
              hash: "0xdef",
              transaction_fee: { amount: "0.001", currency: "ETH" },
              transaction_amount: { amount: "0.1", currency: "ETH" },
            },
            to: { resource: "ethereum_address", address: "0xOUT" },
          }),
        ),
      ],
      prices,
    );
    expect(skipped).toEqual({});
    expect(batch.events).toEqual([
      {
        externalId: "coinbase:x:t1",
        time: new Date(T),
        kind: "receive",
        symbol: "ETH",
        quantity: 0.5,
        price: 3_000,
        txId: "0xabc",
        address: "0xWALLET",
      },
      {
        externalId: "coinbase:x:t2",
        time: new Date(T),
        kind: "send",
        symbol: "ETH",
        quantity: 0.1,
        price: 3_000,
        txId: "0xdef",
        address: "0xOUT",
      },
      { externalId: "coinbase:x:t2:f", time: new Date(T), kind: "fee", amount: 3 },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.side, t.quantity, t.price])).toEqual([
      ["coinbase:x:t2:f:k", "sell", 0.001, 3_000],
    ]);
  });

  it("makes dollars and dollar stablecoins in and out cash flows, and counts a fiat without a USD price", () => {
    const { batch, skipped } = mapCoinbase(
      [
        page(
          tx({ id: "f1", type: "fiat_deposit", amount: { amount: "1000.00", currency: "USD" } }),
          tx({ id: "f2", type: "fiat_withdrawal", amount: { amount: "-250.00", currency: "USD" } }),
          tx({ id: "f3", type: "fiat_deposit", amount: { amount: "90.00", currency: "EUR" } }),
          tx({ id: "s1", type: "send", amount: { amount: "-40", currency: "USDC" } }),
        ),
      ],
      prices,
    );
    expect(batch.cashFlows.map((c) => [c.externalId, c.amount])).toEqual([
      ["coinbase:x:f1", 1000],
      ["coinbase:x:f2", -250],
      ["coinbase:x:s1", -40],
    ]);
    expect(skipped).toEqual({ "deposit of EUR without a USD price": 1 });
  });

  it("pairs a convert's two legs into a swap valued through its dollar side, whichever page comes first", () => {
    const sold = tx({ id: "c1", type: "trade", amount: { amount: "-0.05", currency: "ETH" }, trade: { id: "X" } });
    const got = tx({ id: "c2", type: "trade", amount: { amount: "155", currency: "USDC" }, trade: { id: "X" } });
    const { batch, skipped } = mapCoinbase([page(got), page(sold)], prices);
    expect(skipped).toEqual({});
    // 155 USDC × 1 = 155 USD for 0.05 ETH: 3,100 each; the USDC leg is cash.
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["coinbase:c:X:s", "ETH", "sell", 0.05, 3_100],
    ]);
    const lonely = mapCoinbase([page(sold)], prices);
    expect(lonely.batch.trades).toEqual([]);
    expect(lonely.skipped).toEqual({ "Coinbase convert without both of its legs": 1 });
  });

  it("reads a crypto-to-crypto convert through either side's price", () => {
    const { batch } = mapCoinbase(
      [
        page(
          tx({ id: "c1", type: "trade", amount: { amount: "-1", currency: "ETH" }, trade: { id: "Y" } }),
          tx({ id: "c2", type: "trade", amount: { amount: "0.05", currency: "BTC" }, trade: { id: "Y" } }),
        ),
      ],
      prices,
    );
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["coinbase:c:Y:s", "ETH", "sell", 1, 3_000],
      ["coinbase:c:Y:b", "BTC", "buy", 0.05, 60_000],
    ]);
  });

  it("makes a staking reward income in kind at the price then, and the coin bought at that cost", () => {
    const { batch } = mapCoinbase(
      [page(tx({ id: "r1", type: "staking_reward", amount: { amount: "0.002", currency: "ETH" } }))],
      prices,
    );
    expect(batch.events).toEqual([
      { externalId: "coinbase:x:r1", time: new Date(T), kind: "income", symbol: "ETH", amount: 6 },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.side, t.quantity, t.price])).toEqual([
      ["coinbase:x:r1:b", "buy", 0.002, 3_000],
    ]);
  });

  it("passes over fills, own moves, pending rows and repeats; counts what it cannot read", () => {
    const { batch, skipped } = mapCoinbase(
      [
        page(
          tx({ id: "a", type: "advanced_trade_fill", amount: { amount: "0.01", currency: "BTC" } }),
          tx({ id: "b", type: "staking_transfer", amount: { amount: "-1", currency: "ETH" } }),
          tx({ id: "c", status: "pending" }),
          tx({ id: "d", type: "buy", amount: { amount: "0.01", currency: "BTC" } }),
          tx({ id: "e", type: "clawback", amount: { amount: "-1", currency: "USDC" } }),
          tx({ id: "f", network: { hash: "0x1" } }),
        ),
        page(tx({ id: "f", network: { hash: "0x1" } })),
      ],
      prices,
    );
    expect(batch.events!.map((e) => e.externalId)).toEqual(["coinbase:x:f"]);
    expect(batch.trades).toEqual([]);
    expect(skipped).toEqual({
      "Coinbase simple buy or sell (not read yet)": 1,
      "Coinbase clawback transaction (not read yet)": 1,
    });
  });
});

import { describe, expect, it } from "vitest";
import { grade, parseLedger, type LedgerInput } from "../grading";
import { pricesNeeded, valueSwaps, type PriceLookup, type SwapLeg, type WalletTransaction } from "./swaps";

const usdc = (id: string, amount: number): SwapLeg => ({ id, token: "usdc", symbol: "USDC", amount, stable: true });
const tok = (sym: string, id: string, amount: number): SwapLeg => ({
  id,
  token: sym.toLowerCase(),
  symbol: sym,
  amount,
  stable: false,
});
const tx = (id: string, day: number, legs: SwapLeg[], fee?: number): WalletTransaction => ({
  id,
  time: new Date(Date.UTC(2025, 5, day)),
  legs,
  fee,
});

describe("valueSwaps", () => {
  it("keeps wei-sized legs (no floor of units) and drops only a token's netting residue", () => {
    // v2 dropped any net amount under 1e-12 units: a swap of 5e-15 ETH was no swap.
    const r = valueSwaps([
      tx("a", 1, [usdc("a:1", -0.00002), tok("ETH", "a:2", 5e-15)]),
      tx("b", 2, [usdc("b:1", -2), tok("LINK", "b:2", 0.1 + 0.2), tok("LINK", "b:3", -0.3)]),
    ]);
    expect(r.trades).toEqual([
      expect.objectContaining({ externalId: "a:2", symbol: "ETH", side: "buy", quantity: 5e-15 }),
    ]);
    expect(r.trades[0].price).toBeCloseTo(4e9, 0);
  });

  it("makes no cash flow of 0 from a stablecoin transfer worth less than half a millionth of a dollar", () => {
    const r = valueSwaps([tx("a", 1, [usdc("a:1", 4e-7)]), tx("b", 2, [usdc("b:1", 2)])], { transfers: true });
    expect(r.cashFlows).toEqual([{ externalId: "b:1", time: new Date(Date.UTC(2025, 5, 2)), amount: 2 }]);
  });

  it("turns stablecoin swaps into buys and sells at the implied price", () => {
    const r = valueSwaps([
      tx("a", 1, [usdc("a:1", -1000), tok("LINK", "a:2", 50)]),
      tx("b", 2, [tok("LINK", "b:1", -20), usdc("b:2", 500)]),
    ]);
    expect(r.trades).toEqual([
      expect.objectContaining({
        externalId: "a:2",
        symbol: "LINK",
        side: "buy",
        quantity: 50,
        price: 20,
        assetClass: "crypto",
      }),
      expect.objectContaining({ externalId: "b:1", symbol: "LINK", side: "sell", quantity: 20, price: 25 }),
    ]);
  });

  it("values token-for-token swaps by the last stablecoin price, else skips with a warning", () => {
    const r = valueSwaps([
      tx("x", 1, [tok("UNI", "x:1", -10), tok("AAVE", "x:2", 1)]),
      tx("a", 2, [usdc("a:1", -1000), tok("LINK", "a:2", 50)]),
      tx("b", 3, [tok("LINK", "b:1", -10), tok("AAVE", "b:2", 2)]),
    ]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/UNI → AAVE has no known USD price/);
    expect(r.trades.slice(1)).toEqual([
      expect.objectContaining({ externalId: "b:1", side: "sell", symbol: "LINK", quantity: 10, price: 20 }),
      expect.objectContaining({ externalId: "b:2", side: "buy", symbol: "AAVE", quantity: 2, price: 100 }),
    ]);
  });

  it("ignores transfers and stable-to-stable moves, nets repeated legs, and values the fee in the native coin", () => {
    const r = valueSwaps(
      [
        tx("d", 1, [usdc("d:1", 5000)]),
        tx("s", 1, [usdc("s:1", -100), { id: "s:2", token: "dai", symbol: "DAI", amount: 100, stable: true }]),
        tx("e", 2, [usdc("e:1", -2000), tok("ETH", "e:2", 1)]),
        tx("n", 3, [usdc("n:1", -300), usdc("n:2", -200), tok("PEPE", "n:3", 1e6)], 0.01),
      ],
      { nativeToken: "eth" },
    );
    expect(r.trades.map((t) => t.symbol)).toEqual(["ETH", "PEPE"]);
    expect(r.trades[1]).toMatchObject({ quantity: 1e6, price: 0.0005, fee: 20 });
  });

  describe("with historical prices (priceAt)", () => {
    // ETH $3,000 and UNI $10 on 1 June, ETH $3,300 on 2 June; nothing known for AAVE.
    const prices: Record<string, Record<number, number>> = { eth: { 1: 3000, 2: 3300 }, uni: { 1: 10 } };
    const priceAt: PriceLookup = (token, time) => prices[token]?.[time.getUTCDate()];

    it("values a swap with no stablecoin leg, and no earlier stablecoin swap, at the historical price of a leg", () => {
      const r = valueSwaps([tx("x", 1, [tok("UNI", "x:1", -100), tok("AAVE", "x:2", 4)])], { priceAt });
      expect(r.warnings).toEqual([]);
      expect(r.trades).toEqual([
        expect.objectContaining({ externalId: "x:1", side: "sell", symbol: "UNI", quantity: 100, price: 10 }),
        expect.objectContaining({ externalId: "x:2", side: "buy", symbol: "AAVE", quantity: 4, price: 250 }),
      ]);
    });

    it("prefers the native coin's price to the other leg's and to a stale stablecoin price", () => {
      const r = valueSwaps(
        [
          tx("a", 1, [usdc("a:1", -1000), tok("UNI", "a:2", 200)]), // UNI at $5 by this swap
          tx("b", 2, [tok("UNI", "b:1", -66), tok("ETH", "b:2", 0.2)], 0.001),
        ],
        { nativeToken: "eth", priceAt },
      );
      // 0.2 ETH × $3,300 = $660 for 66 UNI: $10 each, not the stale $5; the fee at ETH's price.
      expect(r.trades.slice(1)).toEqual([
        expect.objectContaining({ externalId: "b:1", side: "sell", symbol: "UNI", quantity: 66, price: 10, fee: 1.65 }),
        expect.objectContaining({
          externalId: "b:2",
          side: "buy",
          symbol: "ETH",
          quantity: 0.2,
          price: 3300,
          fee: 1.65,
        }),
      ]);
    });

    it("falls back to the last stablecoin price when the lookup knows neither leg, else skips", () => {
      const r = valueSwaps(
        [
          tx("a", 3, [usdc("a:1", -1000), tok("LINK", "a:2", 50)]),
          tx("b", 4, [tok("LINK", "b:1", -10), tok("AAVE", "b:2", 2)]),
          tx("c", 5, [tok("PEPE", "c:1", -1e6), tok("WIF", "c:2", 1)]),
        ],
        { priceAt },
      );
      expect(r.trades.find((t) => t.externalId === "b:2")).toMatchObject({ price: 100 });
      expect(r.warnings).toEqual([expect.stringMatching(/^c: PEPE → WIF has no known USD price/)]);
    });

    it("lists the prices it may ask for", () => {
      const needs = pricesNeeded(
        [
          tx("a", 1, [usdc("a:1", -1000), tok("LINK", "a:2", 50)], 0.002),
          tx("b", 2, [tok("UNI", "b:1", -66), tok("ETH", "b:2", 0.2)]),
          tx("d", 3, [usdc("d:1", 5000)], 0.001),
        ],
        { nativeToken: "eth" },
      );
      // The deposit's gas too: a fee is paid in kind in any transaction the wallet sent. LINK,
      // bought with dollars, for its fill's confidence (DECISIONS 219).
      expect(needs.map((n) => [n.token, n.time.getUTCDate()])).toEqual([
        ["eth", 1],
        ["link", 1],
        ["uni", 2],
        ["eth", 2],
        ["eth", 3],
      ]);
    });
  });

  describe("fill confidence (confidenceAt, DECISIONS 219)", () => {
    const txs = [
      tx("a", 1, [usdc("a:1", -1000), tok("PUMP", "a:2", 500)]),
      tx("b", 2, [tok("PUMP", "b:1", -100), usdc("b:2", 400)]),
      tx("c", 3, [tok("PUMP", "c:1", -100), tok("ETH", "c:2", 0.2)]),
      tx("d", 4, [usdc("d:1", -50), tok("LINK", "d:2", 5)]),
    ];
    // PUMP is thin from day 2 on; LINK's source says nothing; ETH is a market.
    const confidenceAt = (token: string, time: Date) =>
      token === "pump" ? (time.getUTCDate() >= 2 ? 0.3 : 0.9) : token === "eth" ? 0.99 : undefined;
    const priceAt = (token: string) => (token === "eth" ? 2000 : undefined);

    it("gives each fill the source's confidence in its token then, and nothing when the source says none", () => {
      const r = valueSwaps(txs, { priceAt, confidenceAt });
      expect(r.trades.map((t) => [t.externalId, t.side, t.symbol, t.confidence])).toEqual([
        ["a:2", "buy", "PUMP", 0.9],
        ["b:1", "sell", "PUMP", 0.3],
        ["c:1", "sell", "PUMP", 0.3],
        ["c:2", "buy", "ETH", 0.99],
        ["d:2", "buy", "LINK", undefined],
      ]);
      expect(r.trades.find((t) => t.externalId === "d:2")).not.toHaveProperty("confidence");
      // The prices are what was paid, confidence or not.
      expect(r.trades.find((t) => t.externalId === "b:1")!.price).toBe(4);
    });

    it("adds nothing without confidenceAt, or for an answer outside 0–1", () => {
      for (const opts of [{ priceAt }, { priceAt, confidenceAt: () => 1.5 }, { priceAt, confidenceAt: () => NaN }])
        for (const t of valueSwaps(txs, opts).trades) expect(t).not.toHaveProperty("confidence");
    });
  });

  describe("network fees in kind (nativeSymbol)", () => {
    const eth = (id: string, amount: number): SwapLeg => ({ id, token: "eth", symbol: "ETH", amount, stable: false });
    const opts = { nativeToken: "eth", nativeSymbol: "ETH", transfers: true, priceAt: () => 2000 };

    it("pays gas in the native coin the rows hold: a fee event, no dollar fee on the trade", () => {
      const r = valueSwaps(
        [
          tx("a", 1, [usdc("a:1", -2000), eth("a:2", 1)]),
          tx("b", 2, [usdc("b:1", -100), tok("LINK", "b:2", 5)], 0.002),
          tx("c", 3, [], 0.001), // an approval: gas and nothing else
        ],
        opts,
      );
      expect(r.trades.map((t) => t.fee)).toEqual([0, 0]);
      expect(r.events).toEqual([
        {
          externalId: "b:fee",
          time: new Date(Date.UTC(2025, 5, 2)),
          kind: "fee",
          symbol: "ETH",
          quantity: 0.002,
          price: 2000,
        },
        {
          externalId: "c:fee",
          time: new Date(Date.UTC(2025, 5, 3)),
          kind: "fee",
          symbol: "ETH",
          quantity: 0.001,
          price: 2000,
        },
      ]);
      expect(r.feesSkipped).toBe(0);
    });

    it("never takes units a later sale needs: the rest of a swap's gas is a dollar fee, of anything else counted", () => {
      const r = valueSwaps(
        [
          tx("a", 1, [usdc("a:1", -20), eth("a:2", 0.01)]),
          // 0.01 held, but 0.0095 of it is sold on the 3rd: this approval's gas can take 0.0005 only.
          tx("b", 2, [], 0.001),
          tx("c", 3, [eth("c:1", -0.0095), usdc("c:2", 19)], 0.001),
        ],
        opts,
      );
      expect(r.events).toEqual([
        expect.objectContaining({ externalId: "b:fee", kind: "fee", quantity: expect.closeTo(0.0005, 15) }),
      ]);
      expect(r.trades[1]).toMatchObject({ side: "sell", symbol: "ETH", quantity: 0.0095, fee: 2 });
      expect(r.feesSkipped).toBe(1);
      expect(r.warnings).toEqual([
        expect.stringMatching(/^b: a network fee of 0.000\d+ ETH paid from units the ledger does not hold/),
      ]);
    });

    it("counts units received and sent in the holding", () => {
      const r = valueSwaps([tx("d", 1, [eth("d:1", 0.01)]), tx("s", 2, [eth("s:1", -0.009)], 0.001)], opts);
      expect(r.events.map((e) => [e.kind, "quantity" in e ? e.quantity : undefined])).toEqual([
        ["receive", 0.01],
        ["fee", 0.001],
        ["send", 0.009],
      ]);
    });
  });

  describe("wrapping (wrappedToken)", () => {
    const eth = (id: string, amount: number): SwapLeg => ({
      id,
      token: "native",
      symbol: "ETH",
      amount,
      stable: false,
    });
    const weth = (id: string, amount: number): SwapLeg => ({
      id,
      token: "weth",
      symbol: "WETH",
      amount,
      stable: false,
    });
    const opts = {
      nativeToken: "native",
      nativeSymbol: "ETH",
      wrappedToken: "weth",
      transfers: true,
      priceAt: () => 2000,
    };

    it("makes the coin out and its wrapped token in, one for one, a wrap: no trade, no price asked", () => {
      const txs = [
        tx("a", 1, [usdc("a:1", -4000), eth("a:2", 2)]),
        tx("w", 2, [eth("w:1", -1.5), weth("w:2", 1.5)], 0.001),
        tx("u", 3, [weth("u:1", -0.5), eth("u:2", 0.5)]),
      ];
      const r = valueSwaps(txs, opts);
      expect(r.trades.map((t) => t.externalId)).toEqual(["a:2"]);
      expect(r.events.filter((e) => e.kind === "wrap")).toEqual([
        {
          externalId: "w:wrap",
          time: new Date(Date.UTC(2025, 5, 2)),
          kind: "wrap",
          symbol: "ETH",
          quantity: 1.5,
          toSymbol: "WETH",
          toQuantity: 1.5,
        },
        {
          externalId: "u:wrap",
          time: new Date(Date.UTC(2025, 5, 3)),
          kind: "wrap",
          symbol: "WETH",
          quantity: 0.5,
          toSymbol: "ETH",
          toQuantity: 0.5,
        },
      ]);
      // The wrap's gas comes from the 0.5 ETH left: wrapping moved the rest out of ETH.
      expect(r.events.find((e) => e.kind === "fee")).toMatchObject({ symbol: "ETH", quantity: 0.001 });
      // The wraps ask nothing (the fee's coin on day 2 only); day 1's buy asks its fill's confidence.
      expect(pricesNeeded(txs, opts).map((n) => [n.token, n.time.getUTCDate()])).toEqual([
        ["native", 1],
        ["native", 2],
      ]);
    });

    it("is a swap when the legs are not one for one, and within the slack (a wSOL account's rent) a wrap of the wrapped units", () => {
      const uneven = valueSwaps([tx("x", 1, [eth("x:1", -1), weth("x:2", 0.9)])], opts);
      expect(uneven.events).toEqual([]);
      expect(uneven.trades.map((t) => [t.side, t.symbol])).toEqual([
        ["sell", "ETH"],
        ["buy", "WETH"],
      ]);
      const rent = valueSwaps([tx("y", 1, [eth("y:1", -1.00204), weth("y:2", 1)])], { ...opts, wrapSlack: 0.01 });
      expect(rent.events).toEqual([expect.objectContaining({ kind: "wrap", quantity: 1, toQuantity: 1 })]);
    });
  });

  describe("the coin and its wrapped form on one side (DECISIONS 221)", () => {
    const sol = (id: string, amount: number): SwapLeg => ({
      id,
      token: "native",
      symbol: "SOL",
      amount,
      stable: false,
    });
    const wsol = (id: string, amount: number): SwapLeg => ({
      id,
      token: "wsol",
      symbol: "WSOL",
      amount,
      stable: false,
    });
    // SOL at $150 on the 1st and 2nd, $160 on the 3rd, $170 on the 6th; JUP never priced.
    const solAt: Record<number, number> = { 1: 150, 2: 150, 3: 160, 6: 170 };
    const priceAt: PriceLookup = (token, time) => (token === "native" ? solAt[time.getUTCDate()] : undefined);
    const opts = {
      nativeToken: "native",
      nativeSymbol: "SOL",
      wrappedToken: "wsol",
      wrapSlack: 0.01,
      transfers: true,
      priceAt,
    };
    const history = [
      tx("d", 1, [usdc("d:1", 1000)]),
      tx("a", 1, [usdc("a:1", -600), sol("a:2", 4)]),
      tx("w", 2, [sol("w:1", -1), wsol("w:2", 1)]),
      // Part paid from SOL, part from the wSOL account: 3 SOL's worth at $160 = $480 for 960 JUP.
      tx("s", 3, [sol("s:1", -2), wsol("s:2", -1), tok("JUP", "s:3", 960)]),
      tx("j", 4, [tok("JUP", "j:1", -960), usdc("j:2", 600)]),
      tx("b", 4, [usdc("b:1", -400), tok("JUP", "b:2", 1000)]),
      // The other way: 1,000 JUP for 1.5 SOL and 0.5 wSOL, 2 SOL's worth at $160 = $320.
      tx("r", 5, [tok("JUP", "r:1", -1000), sol("r:2", 1.5), wsol("r:3", 0.5)]),
      tx("u", 6, [wsol("u:1", -0.5), sol("u:2", 0.5)]),
      tx("x", 6, [sol("x:1", -2), usdc("x:2", 340)]),
    ];

    it("values both coin legs at the coin's price and the token from them, in both directions", () => {
      const r = valueSwaps(history, opts);
      expect(r.warnings).toEqual([]);
      expect(r.swapsSkipped).toBe(0);
      const of = (id: string) => r.trades.filter((t) => t.externalId.startsWith(`${id}:`));
      expect(of("s").map((t) => [t.externalId, t.side, t.symbol, t.quantity, t.price])).toEqual([
        ["s:1", "sell", "SOL", 2, 160],
        ["s:2", "sell", "WSOL", 1, 160],
        ["s:3", "buy", "JUP", 960, 0.5],
      ]);
      expect(of("r").map((t) => [t.externalId, t.side, t.symbol, t.quantity, t.price])).toEqual([
        ["r:2", "buy", "SOL", 1.5, 160],
        ["r:3", "buy", "WSOL", 0.5, 160],
        ["r:1", "sell", "JUP", 1000, 0.32],
      ]);
    });

    it("realizes the coin's gain on both forms alike, and nothing on the wrap (graded end to end)", () => {
      const r = valueSwaps(history, opts);
      const input: LedgerInput = {
        cashFlows: r.cashFlows.map((c) => ({ account: "w", time: c.time.toISOString(), amount: c.amount })),
        trades: r.trades.map((t) => ({
          id: t.externalId,
          account: "w",
          time: t.time.toISOString(),
          symbol: t.symbol,
          assetClass: t.assetClass,
          side: t.side,
          quantity: t.quantity,
          price: t.price,
          fee: t.fee,
        })),
        events: r.events.map((e) => {
          if (e.kind !== "wrap") throw new Error(`unexpected ${e.kind}`);
          return {
            id: e.externalId,
            time: e.time.toISOString(),
            kind: "transfer" as const,
            from: "w",
            to: "w",
            symbol: e.symbol,
            quantity: e.quantity,
            toSymbol: e.toSymbol,
            toQuantity: e.toQuantity,
          };
        }),
      };
      const parsed = parseLedger(input);
      if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
      const g = grade(parsed.ledger, {});
      // 4 SOL bought at $150, 1 of it wrapped (cost kept): 3 sold at $160 = +30; the JUP bought for
      // $480 sold for $600 = +120; 1,000 JUP bought for $400 given for $320 = −80; 2 SOL got for it
      // at $160 (0.5 through wSOL, unwrapped); 2 sold at $170, first in first out: the last one
      // of $150 and one of $160 = +30. In all +100, and 1 SOL of $160 left.
      expect(g.metrics.realizedPnl).toBeCloseTo(100, 6);
      expect(g.warnings.filter((w) => /gap|short|lever/i.test(w))).toEqual([]);
      expect(g.positions).toEqual([expect.objectContaining({ symbol: "SOL", quantity: 1, avgCost: 160 })]);
    });

    it("prices them from a stablecoin, else from the token's price, else skips with a warning", () => {
      const r = valueSwaps(
        [
          tx("a", 1, [usdc("a:1", -450), sol("a:2", 2), wsol("a:3", 1)]),
          tx("b", 2, [sol("b:1", -1), wsol("b:2", -0.5), usdc("b:3", 240)]),
          tx("c", 3, [tok("BONK", "c:1", -1e6), sol("c:2", 0.2), wsol("c:3", 0.3)]),
          tx("d", 4, [usdc("d:1", -100), tok("WIF", "d:2", 50)]),
          tx("e", 5, [tok("WIF", "e:1", -50), sol("e:2", 0.25), wsol("e:3", 0.25)]),
        ],
        { ...opts, priceAt: (token) => (token === "bonk" ? 0.00004 : undefined) },
      );
      expect(r.trades.map((t) => [t.externalId, t.side, t.price])).toEqual([
        // $450 for 3: $150 each; $240 for 1.5: $160 each.
        ["a:2", "buy", 150],
        ["a:3", "buy", 150],
        ["b:1", "sell", 160],
        ["b:2", "sell", 160],
        // 1,000,000 BONK at $0.00004 = $40 for 0.5: $80 each.
        ["c:2", "buy", 80],
        ["c:3", "buy", 80],
        ["c:1", "sell", 0.00004],
        ["d:2", "buy", 2],
        // No price then: SOL's last, $80, values the 0.5 and so 50 WIF at $0.8.
        ["e:2", "buy", 80],
        ["e:3", "buy", 80],
        ["e:1", "sell", 0.8],
      ]);
      const none = valueSwaps([tx("z", 1, [sol("z:1", -1), wsol("z:2", -1), tok("WIF", "z:3", 10)])], {
        ...opts,
        priceAt: () => undefined,
      });
      expect(none.trades).toEqual([]);
      expect(none.swapsSkipped).toBe(1);
      expect(none.warnings).toEqual([expect.stringMatching(/^z: SOL and WSOL → WIF has no known USD price/)]);
      // Two tokens against the coin's two forms: no way to split the value, counted apart from the unpriced.
      const two = valueSwaps(
        [tx("y", 1, [sol("y:1", -1), wsol("y:2", -1), tok("WIF", "y:3", 10), tok("JUP", "y:4", 5)])],
        opts,
      );
      expect(two).toMatchObject({ trades: [], swapsSkipped: 0, swapsUnshaped: 1 });
      expect(two.warnings).toEqual([expect.stringMatching(/^y: 2 tokens out and 2 in; only one token for one/)]);
    });

    it("asks the coin's price and the token's, never the wrapped form's, and splits a dollar fee over the legs", () => {
      const txs = [tx("s", 3, [sol("s:1", -2), wsol("s:2", -1), tok("JUP", "s:3", 960)], 0.000005)];
      expect(pricesNeeded(txs, opts).map((n) => [n.token, n.time.getUTCDate()])).toEqual([
        ["native", 3],
        ["native", 3],
        ["jup", 3],
      ]);
      // No SOL held before it: the gas is a dollar fee, 0.000005 × $160 = $0.0008, a third on each leg.
      const r = valueSwaps(txs, { ...opts, confidenceAt: (token) => (token === "native" ? 0.99 : 0.4) });
      expect(r.trades.map((t) => [t.symbol, t.fee, t.confidence])).toEqual([
        ["SOL", 0.000267, 0.99],
        ["WSOL", 0.000267, 0.99],
        ["JUP", 0.000267, 0.4],
      ]);
    });
  });

  describe("airdrops", () => {
    const opts = { nativeToken: "eth", nativeSymbol: "ETH", wrappedToken: "weth", transfers: true };
    const eth = (id: string, amount: number): SwapLeg => ({ id, token: "eth", symbol: "ETH", amount, stable: false });

    it("reads a token first received in a transaction the wallet sent, nothing out, as income in kind", () => {
      const priceAt: PriceLookup = (token) => (token === "arb" ? 1.2 : token === "eth" ? 2000 : undefined);
      const r = valueSwaps(
        [
          tx("d", 1, [eth("d:1", 1)]),
          tx("claim", 2, [tok("ARB", "claim:1", 500)], 0.001),
          tx("nopx", 3, [tok("DROP", "nopx:1", 100)], 0.001),
        ],
        { ...opts, priceAt },
      );
      expect(r.events.filter((e) => e.kind === "income")).toEqual([
        {
          externalId: "claim:1",
          time: new Date(Date.UTC(2025, 5, 2)),
          kind: "income",
          symbol: "ARB",
          quantity: 500,
          price: 1.2,
          source: "defillama",
        },
        // Without any price it is still income, at 0: the later sale realizes what it brings.
        {
          externalId: "nopx:1",
          time: new Date(Date.UTC(2025, 5, 3)),
          kind: "income",
          symbol: "DROP",
          quantity: 100,
          price: 0,
        },
      ]);
      expect(r.transfersSkipped).toBe(0);
      // With the source's confidence (DECISIONS 219) a priced claim carries it; an unpriced one nothing.
      const vouched = valueSwaps(
        [tx("claim", 2, [tok("ARB", "claim:1", 500)], 0.001), tx("nopx", 3, [tok("DROP", "nopx:1", 100)], 0.001)],
        { ...opts, priceAt, confidenceAt: (token) => (token === "arb" ? 0.99 : 0) },
      );
      expect(
        vouched.events.filter((e) => e.kind === "income").map((e) => ("confidence" in e ? e.confidence : null)),
      ).toEqual([0.99, null]);
    });

    it("keeps a deposit a deposit: sent by someone else, a token met before, the native coin, or with something out", () => {
      const priceAt: PriceLookup = () => 2;
      const r = valueSwaps(
        [
          // Sent by someone else (the wallet paid no fee).
          tx("a", 1, [tok("UNI", "a:1", 10)]),
          // UNI again, in a transaction the wallet sent: a token it had, back (a protocol's withdrawal).
          tx("b", 2, [tok("UNI", "b:1", 5)], 0.001),
          // The native coin and its wrapped form back from a bridge the wallet called.
          tx("c", 3, [eth("c:1", 1)], 0.001),
          tx("d", 4, [tok("WETH", "d:1", 1)], 0.001),
          // Something went out: a swap, not a claim.
          tx("e", 5, [tok("UNI", "e:1", -1), tok("NEW", "e:2", 3)], 0.001),
        ],
        { ...opts, priceAt },
      );
      expect(r.events.filter((e) => e.kind === "income")).toEqual([]);
      expect(r.events.filter((e) => e.kind === "receive").map((e) => e.externalId)).toEqual([
        "a:1",
        "b:1",
        "c:1",
        "d:1",
      ]);
    });
  });
});

import { describe, expect, it } from "vitest";
import { valueSwaps, type SwapLeg, type WalletTransaction } from "./swaps";

const usdc = (id: string, amount: number): SwapLeg => ({ id, token: "usdc", symbol: "USDC", amount, stable: true });
const tok = (sym: string, id: string, amount: number): SwapLeg => ({ id, token: sym.toLowerCase(), symbol: sym, amount, stable: false });
const tx = (id: string, day: number, legs: SwapLeg[], fee?: number): WalletTransaction => ({ id, time: new Date(Date.UTC(2025, 5, day)), legs, fee });

describe("valueSwaps", () => {
  it("turns stablecoin swaps into buys and sells at the implied price", () => {
    const r = valueSwaps([tx("a", 1, [usdc("a:1", -1000), tok("LINK", "a:2", 50)]), tx("b", 2, [tok("LINK", "b:1", -20), usdc("b:2", 500)])]);
    expect(r.trades).toEqual([
      expect.objectContaining({ externalId: "a:2", symbol: "LINK", side: "buy", quantity: 50, price: 20, assetClass: "crypto" }),
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
});

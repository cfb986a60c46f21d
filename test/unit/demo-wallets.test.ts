import bs58 from "bs58";
import { Wallet } from "ethers";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { grade, parseLedger, type Ledger } from "~/grading";
import { EVM_CHAINS, evmTransactions, mapEvmTransactions } from "~/sources/evm.server";
import { walletTokenInstrument } from "~/sources/prices.server";
import { mapSolanaTransactions, solanaTransaction } from "~/sources/solana.server";
import type { SwapValuation, WalletTransaction } from "~/sources/swaps";
import { DEMO_AIRDROP, demoEvmHistory } from "../mocks/evm";
import { coinConfidence, simulatedCoinPrice } from "../mocks/prices";
import { demoSolanaHistory } from "../mocks/solana";

// The demo wallets a trader links (any address: a key made in the browser) read through the real
// adapters, priced by the price simulator as the linking module prices them, and graded together as
// one trader's ledger. What a trader sees must be believable: trades at the market's price, capital
// that came in before it was spent, and a grade whose figures agree with each other.

type Chain = { kind: "evm"; chainId: number } | { kind: "solana" };

/** The price simulator's answer for a wallet token, as swapPriceLookup asks it. */
function priceOf(chain: Chain, token: string, time: Date): number | undefined {
  const instrument = walletTokenInstrument(chain, token);
  return (instrument && simulatedCoinPrice(instrument.slice("coin:".length), time)) ?? undefined;
}

/** DefiLlama's confidence in a wallet token's price, as the linking module asks it (none when unpriced). */
function confidenceOf(chain: Chain, token: string, time: Date): number | undefined {
  const instrument = walletTokenInstrument(chain, token);
  const id = instrument?.slice("coin:".length);
  return id && simulatedCoinPrice(id, time) !== null ? coinConfidence(id) : undefined;
}

type Wallets = { ledger: Ledger; priced: { symbol: string; time: Date; price: number; market: number }[] };

/** An EVM wallet (every active chain) and a Solana wallet as two accounts of one ledger. */
function walletsLedger(evmAddress: string, solanaAddress: string): Wallets {
  const ledger: Ledger = { asOf: "2025-11-15T00:00:00.000Z", trades: [], cashFlows: [], prices: [], events: [] };
  const priced: Wallets["priced"] = [];
  const add = (account: string, chain: Chain, txs: WalletTransaction[], mapped: SwapValuation) => {
    // Which token each trade is of, to compare its price with the market's.
    const tokenOf = new Map<string, string>();
    for (const tx of txs) for (const leg of tx.legs) tokenOf.set(leg.id, leg.token);
    for (const t of mapped.trades) {
      const market = priceOf(chain, tokenOf.get(t.externalId)!, t.time);
      if (market !== undefined) priced.push({ symbol: t.symbol, time: t.time, price: t.price, market });
      ledger.trades.push({ ...t, id: `${account}:${t.externalId}`, account, time: t.time.toISOString() });
    }
    for (const c of mapped.cashFlows) ledger.cashFlows.push({ account, time: c.time.toISOString(), amount: c.amount });
    for (const e of mapped.events)
      if (e.kind === "receive" || e.kind === "send" || e.kind === "income")
        ledger.events.push({ ...e, id: `${account}:${e.externalId}`, account, time: e.time.toISOString() });
  };
  for (const chain of EVM_CHAINS) {
    const txs = evmTransactions(evmAddress, chain, demoEvmHistory(evmAddress, chain.id));
    if (!txs.length) continue;
    const c: Chain = { kind: "evm", chainId: chain.id };
    add(
      `evm-${chain.id}`,
      c,
      txs,
      mapEvmTransactions(
        chain,
        txs,
        (token, time) => priceOf(c, token, time),
        (token, time) => confidenceOf(c, token, time),
      ),
    );
  }
  const sol: Chain = { kind: "solana" };
  const txs = demoSolanaHistory(solanaAddress)
    .txs.map((t) => solanaTransaction(solanaAddress, t.signature, t.result as never))
    .filter((t): t is WalletTransaction => t !== null);
  add(
    "solana",
    sol,
    txs,
    mapSolanaTransactions(
      txs,
      (token, time) => priceOf(sol, token, time),
      (token, time) => confidenceOf(sol, token, time),
    ),
  );
  return { ledger, priced };
}

const traders = [1, 2, 3, 4, 5].map((n) => ({
  n,
  evm: new Wallet(`0x${String(n).padStart(2, "0").repeat(32)}`).address,
  solana: bs58.encode(nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(40 + n)).publicKey),
}));

describe.each(traders)("demo EVM and Solana wallets, trader $n", ({ evm, solana }) => {
  const { ledger, priced } = walletsLedger(evm, solana);

  it("trade at the price the price source has for the token then (one price series per token)", () => {
    expect(priced.length).toBeGreaterThan(50);
    const off = priced.filter((p) => Math.abs(p.price / p.market - 1) > 0.05);
    expect(off.slice(0, 3), `${off.length} of ${priced.length} trades more than 5 % off the market`).toEqual([]);
  });

  it("grade plausibly: capital before it is spent, no leverage, no 2× month, losses within equity", () => {
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const e = grade(parsed.ledger);
    const m = e.metrics;
    // A spot wallet borrows nothing: every buy is paid from stablecoins that came in first.
    expect(e.warnings.filter((w) => /below zero/.test(w))).toEqual([]);
    expect(m.maxLeverage!).toBeLessThanOrEqual(1.01);
    expect(m.largestLoss!).toBeLessThanOrEqual(1);
    // The growth index moves as a portfolio of these coins can: never 2× or ½ in 30 days.
    const index = e.curve.map((p) => p.index);
    for (let i = 30; i < index.length; i++) {
      const ratio = index[i]! / index[i - 30]!;
      expect(ratio, `index ${index[i - 30]} → ${index[i]} by ${e.curve[i]!.date}`).toBeLessThan(2);
      expect(ratio, `index ${index[i - 30]} → ${index[i]} by ${e.curve[i]!.date}`).toBeGreaterThan(0.5);
    }
    // The drawdown is the curve's, and the return the curve's end.
    expect(m.twr!).toBeCloseTo(index.at(-1)! - 1, 6);
  });

  it("claim an airdrop graded as income at its market value then, trusted (issue 29 point 4)", () => {
    const claims = ledger.events.filter((e) => e.kind === "income");
    const quantity = DEMO_AIRDROP.quantity();
    const price = simulatedCoinPrice(`ethereum:${DEMO_AIRDROP.token.address}`, new Date(DEMO_AIRDROP.time * 1000))!;
    expect(claims).toEqual([
      expect.objectContaining({
        account: "evm-1",
        symbol: "EIGEN",
        quantity,
        price: expect.closeTo(price, 9),
        source: "defillama",
        confidence: 0.99,
      }),
    ]);
    // About $250 then, all of it income: DefiLlama's 0.99 vouches for the price.
    expect(quantity * price).toBeCloseTo(DEMO_AIRDROP.usd, 0);
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    expect(grade(parsed.ledger).metrics.income).toBeCloseTo(quantity * price, 6);
  });
});

describe("the demo wallets' months", () => {
  it("are 2025's as traders remember them: ETH near $4,800 in late August, SOL near $245 in mid-September", () => {
    const at = (id: string, day: string) => simulatedCoinPrice(id, new Date(`${day}T12:00:00Z`))!;
    expect(at("coingecko:ethereum", "2025-05-01")).toBeLessThan(2_500);
    expect(at("coingecko:ethereum", "2025-08-24")).toBeGreaterThan(4_000);
    expect(at("coingecko:solana", "2025-09-18")).toBeGreaterThan(200);
    expect(at("coingecko:bitcoin", "2025-08-14")).toBeGreaterThan(110_000);
  });
});

import crypto from "node:crypto";
import { mulberry32 } from "./random";

/**
 * The trading simulation behind the wallet simulators (evm.ts, solana.ts): for any address, a
 * deterministic history seeded by the address. The trader buys and sells through stablecoins,
 * sometimes token for token or with the chain's native coin, over six months (May to October
 * 2025), at the price simulator's price of each token then (test/mocks/prices.ts) within 1 %
 * slippage: the price source values the wallet's swaps, transfers and holdings with that same
 * series, so a wallet's own walk would make its trades disagree with their valuation.
 */
export const SIM_START = Date.UTC(2025, 4, 1);
export const SIM_DAYS = 184;

export function seededRandom(seed: string): () => number {
  return mulberry32(crypto.createHash("sha256").update(seed).digest().readUInt32LE(0));
}

/** A risky token: its key and its market price in USD at a time (unix seconds). */
export type SimToken = { key: string; price: (time: number) => number };

export type SimSwap = {
  index: number;
  time: number; // unix seconds
  /** What the wallet sent and received: a token key (or a stablecoin key) and whole-token amounts. */
  outToken: string;
  outAmount: number;
  inToken: string;
  inAmount: number;
};

export type SimEvent = SimSwap | { index: number; time: number; deposit: string; amount: number };

/**
 * Simulates trading for one address. `tokens` are the risky assets (the first is the native coin's
 * wrapped form); `stables` are $1 coins. Returns swaps and deposits in time order.
 */
export function simulateTrading(seed: string, tokens: SimToken[], stables: string[]): SimEvent[] {
  const rand = seededRandom(seed);
  const market = new Map(tokens.map((t) => [t.key, t.price]));
  const priceAt = (key: string, time: number) => market.get(key)!(time) * (0.99 + rand() * 0.02);
  const events: SimEvent[] = [];
  const count = 60 + Math.floor(rand() * 40);
  const times = Array.from({ length: count }, () =>
    Math.floor(SIM_START / 1000 + 86400 + rand() * (SIM_DAYS - 1) * 86400),
  ).sort((a, b) => a - b);
  let cash = 10_000 + Math.floor(rand() * 40) * 1000;
  let index = 0;
  events.push({ index: index++, time: Math.floor(SIM_START / 1000) + 3600, deposit: stables[0]!, amount: cash });
  const holdings = new Map<string, number>();
  // Dollars by stablecoin: a buy pays with a coin the wallet holds (a chain cannot send more).
  const dollars = new Map<string, number>([[stables[0]!, cash]]);
  const credit = (coin: string, usd: number) => dollars.set(coin, (dollars.get(coin) ?? 0) + usd);
  const stable = () => stables[Math.floor(rand() * stables.length)]!;
  for (const time of times) {
    const r = rand();
    const held = [...holdings.entries()].filter(([, q]) => q > 0);
    if (r < 0.04) {
      const more = 2000 + Math.floor(rand() * 10) * 500;
      cash += more;
      credit(stables[0]!, more);
      events.push({ index: index++, time, deposit: stables[0]!, amount: more });
      continue;
    }
    if (held.length && (r < 0.42 || cash < 200)) {
      // Sell part or all of a holding for a stablecoin.
      const [key, qty] = held[Math.floor(rand() * held.length)]!;
      const sold = rand() < 0.4 ? qty : qty * (0.3 + rand() * 0.6);
      const usd = sold * priceAt(key, time);
      holdings.set(key, qty - sold);
      cash += usd;
      const coin = stable();
      credit(coin, usd);
      events.push({ index: index++, time, outToken: key, outAmount: sold, inToken: coin, inAmount: usd });
      continue;
    }
    if (held.length && r < 0.52) {
      // Token for token, valued at market.
      const [key, qty] = held[Math.floor(rand() * held.length)]!;
      const other = tokens.filter((t) => t.key !== key)[Math.floor(rand() * (tokens.length - 1))]!.key;
      const sold = qty * (0.3 + rand() * 0.7);
      const usd = sold * priceAt(key, time);
      const got = usd / priceAt(other, time);
      holdings.set(key, qty - sold);
      holdings.set(other, (holdings.get(other) ?? 0) + got);
      events.push({ index: index++, time, outToken: key, outAmount: sold, inToken: other, inAmount: got });
      continue;
    }
    if (cash < 200) continue;
    const key = tokens[Math.floor(rand() * tokens.length)]!.key;
    const [coin, balance] = [...dollars.entries()].reduce((a, b) => (b[1] > a[1] ? b : a));
    const usd = Math.min(balance, cash * (0.08 + rand() * 0.25));
    const got = usd / priceAt(key, time);
    cash -= usd;
    credit(coin, -usd);
    holdings.set(key, (holdings.get(key) ?? 0) + got);
    events.push({ index: index++, time, outToken: coin, outAmount: usd, inToken: key, inAmount: got });
  }
  return events;
}

/** An integer amount in base units (as a decimal string) for a whole-token amount. */
export function baseUnits(amount: number, decimals: number): string {
  const digits = Math.min(decimals, 8);
  const scaled = BigInt(Math.round(amount * 10 ** digits));
  return (scaled * 10n ** BigInt(decimals - digits)).toString();
}

/**
 * The made-up contract of an Ethereum token's copy on a layer 2 (evm.ts), which the price simulator
 * prices as the token itself (prices.ts), as DefiLlama prices a bridged token.
 */
export function l2TokenAddress(chainId: number, symbol: string): string {
  return `0x${hexDigest("token", String(chainId), symbol).slice(0, 40)}`;
}

export function hexDigest(...parts: string[]): string {
  return crypto.createHash("sha256").update(parts.join(":")).digest("hex");
}

/** A small LRU so the simulators do not regenerate a history for every page. */
export function memo<T>(limit = 200) {
  const map = new Map<string, T>();
  return (key: string, make: () => T): T => {
    const hit = map.get(key);
    if (hit !== undefined) {
      map.delete(key);
      map.set(key, hit);
      return hit;
    }
    const value = make();
    map.set(key, value);
    if (map.size > limit) map.delete(map.keys().next().value!);
    return value;
  };
}

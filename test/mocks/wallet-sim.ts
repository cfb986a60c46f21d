import crypto from "node:crypto";
import { mulberry32 } from "./random";

/**
 * The trading simulation behind the wallet simulators (evm.ts, solana.ts): for any address, a
 * deterministic history seeded by the address. Prices follow a seeded random walk with a drift per
 * token (some go up, some down), and the trader buys and sells through stablecoins, sometimes
 * token for token or with the chain's native coin, over six months (May to October 2025).
 */
export const SIM_START = Date.UTC(2025, 4, 1);
export const SIM_DAYS = 184;

export function seededRandom(seed: string): () => number {
  return mulberry32(crypto.createHash("sha256").update(seed).digest().readUInt32LE(0));
}

export type SimToken = { key: string; basePrice: number };

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
  // Daily prices: a drift per token between -70% and +90% over the period, plus noise.
  const prices = new Map<string, number[]>();
  for (const t of tokens) {
    const drift = -0.7 + rand() * 1.6;
    const vol = 0.02 + rand() * 0.04;
    const series: number[] = [];
    let p = t.basePrice * (0.7 + rand() * 0.6);
    for (let d = 0; d <= SIM_DAYS; d++) {
      series.push(p);
      p *= Math.exp(Math.log(1 + drift) / SIM_DAYS + vol * (rand() * 2 - 1));
    }
    prices.set(t.key, series);
  }
  const priceAt = (key: string, time: number) =>
    prices.get(key)![Math.min(SIM_DAYS, Math.floor((time - SIM_START / 1000) / 86400))]! * (0.99 + rand() * 0.02);

  const events: SimEvent[] = [];
  const count = 60 + Math.floor(rand() * 40);
  const times = Array.from({ length: count }, () =>
    Math.floor(SIM_START / 1000 + 86400 + rand() * (SIM_DAYS - 1) * 86400),
  ).sort((a, b) => a - b);
  let cash = 10_000 + Math.floor(rand() * 40) * 1000;
  let index = 0;
  events.push({ index: index++, time: Math.floor(SIM_START / 1000) + 3600, deposit: stables[0]!, amount: cash });
  const holdings = new Map<string, number>();
  const stable = () => stables[Math.floor(rand() * stables.length)]!;
  for (const time of times) {
    const r = rand();
    const held = [...holdings.entries()].filter(([, q]) => q > 0);
    if (r < 0.04) {
      const more = 2000 + Math.floor(rand() * 10) * 500;
      cash += more;
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
      events.push({ index: index++, time, outToken: key, outAmount: sold, inToken: stable(), inAmount: usd });
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
    const usd = Math.min(cash, cash * (0.08 + rand() * 0.25));
    const got = usd / priceAt(key, time);
    cash -= usd;
    holdings.set(key, (holdings.get(key) ?? 0) + got);
    events.push({ index: index++, time, outToken: stable(), outAmount: usd, inToken: key, inAmount: got });
  }
  return events;
}

/** An integer amount in base units (as a decimal string) for a whole-token amount. */
export function baseUnits(amount: number, decimals: number): string {
  const digits = Math.min(decimals, 8);
  const scaled = BigInt(Math.round(amount * 10 ** digits));
  return (scaled * 10n ** BigInt(decimals - digits)).toString();
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

// Gaming and small-sample tests: the grade must not be easy to inflate.
import { describe, expect, it } from "vitest";
import { grade, parseLedger, type Evaluation, type LedgerInput } from "./index";
import { mulberry32 } from "../../test/mocks/random";

const DAY = 86_400_000;
const T0 = Date.UTC(2023, 0, 2, 14, 30);
const iso = (ms: number) => new Date(ms).toISOString();

function run(input: LedgerInput): Evaluation {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger);
}

interface Trip {
  day: number;
  symbol: string;
  quantity: number;
  entry: number;
  exit: number;
  holdDays?: number;
  /** Fraction of the day at which the trip opens. */
  at?: number;
}

/** One deposit, then the given round trips (each a buy and a later sell) with daily marks in between. */
function ledgerOf(deposit: number, trips: Trip[], feeRate = 0): LedgerInput {
  const trades: LedgerInput["trades"] = [];
  trips.forEach((t, i) => {
    const open = T0 + (t.day + (t.at ?? 0)) * DAY;
    const close = open + (t.holdDays ?? 0.25) * DAY;
    trades.push({ id: `o${i}`, account: "main", time: iso(open), symbol: t.symbol, assetClass: "stock", side: "buy", quantity: t.quantity, price: t.entry, fee: t.quantity * t.entry * feeRate });
    trades.push({ id: `c${i}`, account: "main", time: iso(close), symbol: t.symbol, assetClass: "stock", side: "sell", quantity: t.quantity, price: t.exit, fee: t.quantity * t.exit * feeRate });
  });
  return { cashFlows: [{ account: "main", time: iso(T0 - DAY), amount: deposit }], trades };
}

/** A skilled, disciplined trader: two years, 15 symbols, ~55 % winners at +3 %, losers cut at −1.5 %. */
function skilled(days = 730, tripsPerWeek = 5): LedgerInput {
  const rand = mulberry32(7);
  const trips: Trip[] = [];
  let equity = 100_000;
  for (let d = 0; d < days; d++) {
    if (d % 7 >= 5) continue;
    if (rand() > tripsPerWeek / 5) continue;
    const win = rand() < 0.55;
    const entry = 100;
    const exit = win ? 103 : 98.5;
    const quantity = Math.floor((equity * 0.2) / entry);
    trips.push({ day: d, symbol: `S${d % 15}`, quantity, entry, exit, holdDays: win ? 0.3 : 0.2 });
    equity += quantity * (exit - entry);
  }
  return ledgerOf(100_000, trips);
}

const show = (name: string, e: Evaluation) =>
  process.env.GRADING_DEBUG &&
  console.log(name, JSON.stringify({ score: e.score, tier: e.tier, confidence: e.confidence, provisional: e.provisional, dims: e.dimensions, twrA: e.metrics.twrAnnualized, mdd: e.metrics.maxDrawdown, sharpe: e.metrics.sharpe, ins: e.insights.map((i) => i.text) }));

describe("gaming", () => {
  it("a skilled, long record can reach the top tiers (the scale is reachable)", () => {
    const e = run(skilled());
    show("skilled", e);
    expect(e.provisional).toBe(false);
    expect(e.confidence).toBe(1);
    expect(e.score!).toBeGreaterThanOrEqual(75);
    expect(["Master", "Legend"]).toContain(e.tier);
  });

  it("many tiny winning trades do not reach Legend (nor Master)", () => {
    // 1000 winners of +$1 on a $100,000 account over a year: 100 % win rate, ~1 % return.
    const trips: Trip[] = Array.from({ length: 1000 }, (_, i) => ({
      day: Math.floor((i * 365) / 1000),
      at: (i % 3) * 0.1,
      holdDays: 0.05,
      symbol: "TINY",
      quantity: 100,
      entry: 50,
      exit: 50.01,
    }));
    const e = run(ledgerOf(100_000, trips));
    show("tiny", e);
    expect(e.metrics.winRate).toBe(1);
    expect(e.metrics.roundTrips).toBe(1000);
    expect(e.provisional).toBe(false);
    expect(e.tier).not.toBe("Legend");
    expect(e.score!).toBeLessThan(75);
  });

  it("one lucky bet does not reach Legend: provisional, low confidence, capped at Silver", () => {
    // +300 % on a single round trip held for a year and a half.
    const e = run(ledgerOf(10_000, [{ day: 0, symbol: "MOON", quantity: 100, entry: 100, exit: 400, holdDays: 540 }]));
    show("lucky", e);
    expect(e.metrics.roundTrips).toBe(1);
    expect(e.metrics.twr!).toBeCloseTo(3, 10);
    expect(e.provisional).toBe(true);
    expect(e.confidence).toBeLessThan(0.2);
    expect(e.score!).toBeLessThanOrEqual(59);
    expect(["Bronze", "Silver"]).toContain(e.tier);
    expect(e.insights[0].id).toBe("provisional");
    expect(e.insights[0].text).toMatch(/19 more round trips/);
  });

  it("one great week does not reach Legend", () => {
    const trips: Trip[] = Array.from({ length: 40 }, (_, i) => ({ day: Math.floor(i / 8), symbol: `W${i % 5}`, quantity: 100, entry: 100, exit: 104 }));
    const e = run(ledgerOf(50_000, trips));
    show("week", e);
    expect(e.metrics.trackRecordDays).toBeLessThan(7);
    expect(e.metrics.winRate).toBe(1);
    expect(e.provisional).toBe(true);
    expect(e.score!).toBeLessThanOrEqual(59);
    expect(e.tier).not.toBe("Legend");
    expect(e.insights[0].text).toMatch(/more active days of history/);
  });

  it("provisional caps the tier of an otherwise strong record", () => {
    const full = skilled(730);
    const short = skilled(60);
    const eFull = run(full);
    const eShort = run(short);
    show("short", eShort);
    expect(eShort.provisional).toBe(true);
    expect(eShort.score!).toBeLessThanOrEqual(59);
    expect(["Bronze", "Silver"]).toContain(eShort.tier);
    expect(eShort.confidence).toBeLessThan(eFull.confidence);
    expect(eShort.score!).toBeLessThan(eFull.score!);
  });

  it("is monotone in outcomes: the same record with bigger losers scores lower", () => {
    const base = skilled();
    const worse: LedgerInput = {
      ...base,
      trades: base.trades.map((t) => (t.side === "sell" && t.price < 100 ? { ...t, price: 96 } : t)),
    };
    expect(run(worse).score!).toBeLessThan(run(base).score!);
  });
});

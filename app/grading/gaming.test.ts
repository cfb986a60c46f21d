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
    trades.push({
      id: `o${i}`,
      account: "main",
      time: iso(open),
      symbol: t.symbol,
      assetClass: "stock",
      side: "buy",
      quantity: t.quantity,
      price: t.entry,
      fee: t.quantity * t.entry * feeRate,
    });
    trades.push({
      id: `c${i}`,
      account: "main",
      time: iso(close),
      symbol: t.symbol,
      assetClass: "stock",
      side: "sell",
      quantity: t.quantity,
      price: t.exit,
      fee: t.quantity * t.exit * feeRate,
    });
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

/**
 * `days` daily closes of a market index whose total return is `total`: a seeded walk of `vol` a
 * day, bent along a straight line in log price so that it ends exactly there.
 */
function market(total: number, days = 366, seed = 3, vol = 0.01): number[] {
  const rand = mulberry32(seed);
  const walk = [0];
  for (let d = 1; d < days; d++) {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    walk.push(walk[d - 1] + vol * z);
  }
  const end = walk[days - 1];
  return walk.map((x, d) => 400 * Math.exp(x + (d / (days - 1)) * (Math.log(1 + total) - end)));
}

const CLOSE = Date.UTC(2023, 0, 2, 21, 0);

/**
 * Fully invested in `symbol` (its daily `closes`, marked every day) from the first close to the
 * last, selling the whole position and buying it back at the same close every `every` days; graded
 * against `bench` (SPY) with a constant 4.5 % risk-free rate.
 */
function holder(symbol: string, closes: number[], bench: number[], every = 10): LedgerInput {
  const at = (d: number) => iso(CLOSE + d * DAY);
  const trade = (id: string, d: number, side: "buy" | "sell", quantity: number, seq: number) => ({
    id,
    account: "main",
    time: at(d),
    symbol,
    assetClass: "etf" as const,
    side,
    quantity,
    price: closes[d],
    seq,
  });
  let quantity = 100_000 / closes[0];
  const trades: LedgerInput["trades"] = [trade("b0", 0, "buy", quantity, 1)];
  for (let d = every; d < closes.length - 1; d += every) {
    trades.push(trade(`s${d}`, d, "sell", quantity, 1));
    quantity = (quantity * closes[d]) / closes[d];
    trades.push(trade(`b${d}`, d, "buy", quantity, 2));
  }
  return {
    asOf: at(closes.length - 1),
    cashFlows: [{ account: "main", time: iso(CLOSE - 60_000), amount: 100_000 }],
    trades,
    prices: closes.map((price, d) => ({ symbol, time: at(d), price, confidence: 1 })),
    benchmark: { symbol: "SPY", prices: bench.map((price, d) => ({ time: at(d), price })) },
    riskFree: { symbol: "^IRX", rates: [{ time: iso(CLOSE - DAY), rate: 0.045 }] },
  };
}

/** The benchmark's closes with a constant extra return of `perYear` (compounded daily): the same risk, an edge. */
const withEdge = (bench: number[], perYear: number) => bench.map((p, d) => p * Math.pow(1 + perYear, d / 365));

/** Closes whose daily return is `beta` × the benchmark's plus a constant, chosen so the total return is `total`. */
function withBeta(bench: number[], beta: number, total: number): number[] {
  const path = (k: number) => {
    const out = [bench[0]];
    for (let d = 1; d < bench.length; d++) out.push(out[d - 1] * (1 + beta * (bench[d] / bench[d - 1] - 1) + k));
    return out;
  };
  let lo = -0.01;
  let hi = 0.01;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    const p = path(mid);
    if (p[p.length - 1] / p[0] - 1 < total) lo = mid;
    else hi = mid;
  }
  return path((lo + hi) / 2);
}

const show = (name: string, e: Evaluation) =>
  process.env.GRADING_DEBUG &&
  console.log(
    name,
    JSON.stringify({
      score: e.score,
      tier: e.tier,
      confidence: e.confidence,
      provisional: e.provisional,
      dims: e.dimensions,
      twrA: e.metrics.twrAnnualized,
      mdd: e.metrics.maxDrawdown,
      sharpe: e.metrics.sharpe,
      ins: e.insights.map((i) => i.text),
    }),
  );

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
    const trips: Trip[] = Array.from({ length: 40 }, (_, i) => ({
      day: Math.floor(i / 8),
      symbol: `W${i % 5}`,
      quantity: 100,
      entry: 100,
      exit: 104,
    }));
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

describe("gaming, v2: padding, leverage and worse losses", () => {
  const last = (input: LedgerInput) => Math.max(...input.trades.map((t) => Date.parse(t.time)));
  /** The record plus one round trip losing `fraction` of the equity it ends with (bought with `size` × equity). */
  const withLoss = (input: LedgerInput, fraction: number, size = 1): LedgerInput => {
    const equity = run(input).metrics.equity;
    const t = last(input) + 2 * DAY;
    const quantity = (equity * size) / 100;
    const exit = 100 - (100 * fraction) / size;
    return {
      ...input,
      trades: [
        ...input.trades,
        {
          id: "loss-o",
          account: "main",
          time: iso(t),
          symbol: "LOSER",
          assetClass: "stock",
          side: "buy",
          quantity,
          price: 100,
        },
        {
          id: "loss-c",
          account: "main",
          time: iso(t + DAY / 4),
          symbol: "LOSER",
          assetClass: "stock",
          side: "sell",
          quantity,
          price: exit,
        },
      ],
    };
  };
  /** A $1 round trip two years before the record's first item. */
  const padded = (input: LedgerInput): LedgerInput => {
    const first = Math.min(
      ...input.trades.map((t) => Date.parse(t.time)),
      ...(input.cashFlows ?? []).map((f) => Date.parse(f.time)),
    );
    const t = first - 730 * DAY;
    return {
      ...input,
      trades: [
        {
          id: "pad-o",
          account: "main",
          time: iso(t),
          symbol: "PAD",
          assetClass: "stock",
          side: "buy",
          quantity: 1,
          price: 1,
        },
        {
          id: "pad-c",
          account: "main",
          time: iso(t + DAY / 8),
          symbol: "PAD",
          assetClass: "stock",
          side: "sell",
          quantity: 1,
          price: 1.01,
        },
        ...input.trades,
      ],
    };
  };
  /** One intraday round trip of 20× the equity, won or lost by 2 %, a week after the record. */
  const leveraged = (input: LedgerInput, win: boolean): LedgerInput => {
    const equity = run(input).metrics.equity;
    const t = last(input) + 7 * DAY;
    const quantity = (equity * 20) / 100;
    return {
      ...input,
      trades: [
        ...input.trades,
        {
          id: "lev-o",
          account: "main",
          time: iso(t),
          symbol: "LEV",
          assetClass: "stock",
          side: "buy",
          quantity,
          price: 100,
        },
        {
          id: "lev-c",
          account: "main",
          time: iso(t + DAY / 8),
          symbol: "LEV",
          assetClass: "stock",
          side: "sell",
          quantity,
          price: win ? 102 : 98,
        },
      ],
    };
  };
  const losing = (): LedgerInput => {
    // A year of small losers and fewer winners: −3.7 %-ish, a losing record.
    const rand = mulberry32(11);
    const trips: Trip[] = [];
    for (let d = 0; d < 365; d += 3)
      trips.push({ day: d, symbol: `L${d % 7}`, quantity: 100, entry: 100, exit: rand() < 0.45 ? 101 : 99.2 });
    return ledgerOf(100_000, trips);
  };
  const week = (): LedgerInput =>
    ledgerOf(
      50_000,
      Array.from({ length: 40 }, (_, i) => ({
        day: Math.floor(i / 8),
        symbol: `W${i % 5}`,
        quantity: 100,
        entry: 100,
        exit: 104,
      })),
    );
  const records: [string, () => LedgerInput][] = [
    ["skilled", () => skilled()],
    ["short skilled", () => skilled(60)],
    ["losing", losing],
    ["one week", week],
  ];

  it("a worse loss never scores higher: −50 % ≥ −99 % ≥ −100 % ≥ −150 %", () => {
    for (const [name, make] of records) {
      const base = make();
      const scores = [
        run(withLoss(base, 0.5)).score!,
        run(withLoss(base, 0.99)).score!,
        run(withLoss(base, 1)).score!,
        run(withLoss(base, 1.5, 1.5)).score!,
      ];
      show(`losses ${name} ${scores.join(" ")}`, run(withLoss(base, 1.5, 1.5)));
      for (let i = 1; i < scores.length; i++)
        expect(scores[i], `${name}: loss ${i}`).toBeLessThanOrEqual(scores[i - 1]);
      expect(scores[0]).toBeGreaterThan(scores[3]);
    }
  });

  it("the largest loss is measured against the equity before the trip: 50 % reads as 50 %, 99 % as 99 %", () => {
    const base = skilled(120);
    expect(run(withLoss(base, 0.5)).metrics.largestLoss!).toBeCloseTo(0.5, 9);
    expect(run(withLoss(base, 0.99)).metrics.largestLoss!).toBeCloseTo(0.99, 9);
    expect(run(withLoss(base, 1.5, 1.5)).metrics.largestLoss!).toBeCloseTo(1.5, 9);
  });

  it("a $1 round trip two years before a record moves its score by at most 0.5 points and never changes its tier", () => {
    for (const [name, make] of records) {
      const base = run(make());
      const pad = run(padded(make()));
      show(`padded ${name}`, pad);
      expect(pad.metrics.activeDays, name).toBe(base.metrics.activeDays + 1);
      expect(Math.abs(pad.score! - base.score!), name).toBeLessThanOrEqual(0.5);
      expect(pad.tier, name).toBe(base.tier);
    }
  });

  it("strictly better exit prices never lower the score: every exit, or some of them, a little or a lot", () => {
    /** The record with the chosen exits (sells) `gain` higher. */
    const better = (input: LedgerInput, gain: number, pick: (i: number) => boolean): LedgerInput => ({
      ...input,
      trades: input.trades.map((t, i) => (t.side === "sell" && pick(i) ? { ...t, price: t.price * (1 + gain) } : t)),
    });
    const against: [string, () => LedgerInput][] = [
      ["rider, bull market", () => holder("VOO", market(0.25), market(0.25))],
      ["ahead, bear market", () => holder("QQQ", withEdge(market(-0.2), 0.05), market(-0.2))],
    ];
    for (const [name, make] of [...records, ...against]) {
      const base = make();
      for (const pick of [() => true, (i: number) => i % 3 === 1, (i: number) => i % 7 === 3]) {
        let previous = run(base).score!;
        for (const gain of [0.001, 0.01, 0.05, 0.2]) {
          const score = run(better(base, gain, pick)).score!;
          expect(score, `${name} +${gain}`).toBeGreaterThanOrEqual(previous);
          previous = score;
        }
      }
    }
  });

  it("a 20× leveraged intraday round trip, won or lost, never raises a score", () => {
    for (const [name, make] of records) {
      const base = run(make());
      for (const win of [true, false]) {
        const lev = run(leveraged(make(), win));
        show(`leveraged ${name} ${win}`, lev);
        expect(lev.metrics.maxLeverage!, name).toBeGreaterThan(15);
        expect(lev.score!, `${name} ${win ? "won" : "lost"}`).toBeLessThanOrEqual(base.score!);
      }
    }
  });

  it("overall stars are the tier's rank", () => {
    for (const [, make] of records) {
      const e = run(make());
      expect(e.stars!.overall).toBe(["Bronze", "Silver", "Gold", "Master", "Legend"].indexOf(e.tier!) + 1);
    }
  });
});

describe("against the market", () => {
  it("a losing year in a rising market is visibly below average, and an insight says what the market did", () => {
    const rand = mulberry32(11);
    const trips: Trip[] = [];
    for (let d = 0; d < 365; d += 3)
      trips.push({ day: d, symbol: `L${d % 7}`, quantity: 100, entry: 100, exit: rand() < 0.45 ? 101 : 99.2 });
    const record = ledgerOf(100_000, trips);
    // The S&P 500 up 21 % over the year, with daily moves (a series that never varies has no beta).
    const walk = market(0.24, 372, 5);
    const prices = walk.map((price, d) => ({ time: iso(T0 - 2 * DAY + d * DAY), price }));
    const alone = run(record);
    const measured = run({ ...record, benchmark: { symbol: "SPY", prices } });
    show("market", measured);
    expect(alone.metrics.twr!).toBeLessThan(0);
    expect(measured.metrics.benchmark!.return).toBeGreaterThan(0.2);
    expect(measured.metrics.benchmark!.excess!).toBeLessThan(-0.2);
    // v3: profitability is alpha, and a day trader holding nothing overnight took no market risk,
    // so the market's rise is not charged to it there; consistency (no month beat the market) is.
    expect(measured.metrics.alpha!).toBeLessThan(0);
    expect(measured.dimensions!.consistency).toBeLessThan(alone.dimensions!.consistency);
    expect(measured.score!).toBeLessThan(alone.score!);
    expect(measured.score!).toBeLessThan(40);
    const said = measured.insights.find((i) => i.id === "excess-return");
    expect(said?.text).toMatch(/^Over the same time the S&P 500 rose 2\d\.\d % while you lost \d+\.\d %\.$/);
  });
});

describe("v3: excess over the market, adjusted for risk, earns the tier", () => {
  const markets: [string, number][] = [
    ["bull (+25 %)", 0.25],
    ["flat", 0],
    ["bear (−20 %)", -0.2],
  ];

  it("a record that only rides the benchmark lands Silver, in a bull market and in a bear market", () => {
    for (const [name, total] of markets) {
      const bench = market(total);
      const e = run(holder("SPY", bench, bench));
      show(`rider ${name}`, e);
      expect(e.metrics.roundTrips, name).toBeGreaterThanOrEqual(30);
      expect(e.provisional, name).toBe(false);
      expect(e.metrics.benchmark!.excess!, name).toBeCloseTo(0, 12);
      expect(e.metrics.beta!, name).toBeCloseTo(1, 9);
      expect(e.metrics.alpha, name).toBe(0);
      expect(e.dimensions!.profitability, name).toBe(50);
      expect(e.tier, name).toBe("Silver");
      expect(e.score!, name).toBeGreaterThanOrEqual(45);
      expect(e.score!, name).toBeLessThan(60);
      expect(e.insights.map((i) => i.text)).toContain("In line with the S&P 500: no evidence of skill yet.");
    }
  });

  it("a bull market does not lift the rider: its score moves by a few points across markets, not tiers", () => {
    const scores = markets.map(([, total]) => {
      const bench = market(total);
      return run(holder("SPY", bench, bench)).score!;
    });
    expect(Math.max(...scores) - Math.min(...scores)).toBeLessThan(8);
  });

  it("beating the benchmark at the same risk scores above matching it, in every market", () => {
    for (const [name, total] of markets) {
      const bench = market(total);
      const rider = run(holder("SPY", bench, bench));
      const better = run(holder("EDGE", withEdge(bench, 0.08), bench));
      show(`edge ${name}`, better);
      expect(better.metrics.beta!, name).toBeCloseTo(1, 2);
      // 8 % a year compounded daily over 365 days, less the cross term with the market: about 7.7 %.
      expect(better.metrics.alpha!, name).toBeGreaterThan(0.07);
      expect(better.metrics.alpha!, name).toBeLessThan(0.085);
      expect(better.score!, name).toBeGreaterThan(rider.score! + 3);
      expect(better.dimensions!.profitability, name).toBeGreaterThan(65);
      expect(better.insights.map((i) => i.text).join(" "), name).toMatch(
        /\+7\.\d %\/yr over the S&P 500 at similar risk/,
      );
    }
  });

  it("twice the beta for the same excess over the benchmark does not score higher", () => {
    const bench = market(0.25);
    const a = run(holder("EDGE", withEdge(bench, 0.08), bench));
    const twr = a.metrics.twr!;
    const b = run(holder("LEVERED", withBeta(bench, 2, twr), bench));
    show("2 beta", b);
    expect(b.metrics.twr!).toBeCloseTo(twr, 9);
    expect(b.metrics.benchmark!.excess!).toBeCloseTo(a.metrics.benchmark!.excess!, 9);
    expect(b.metrics.beta!).toBeCloseTo(2, 1);
    expect(b.metrics.alpha!).toBeLessThan(a.metrics.alpha!);
    expect(b.dimensions!.profitability).toBeLessThan(a.dimensions!.profitability);
    expect(b.score!).toBeLessThan(a.score!);
  });
});

describe("v3.3: prices the trader cannot move", () => {
  /**
   * A skilled record (two trips a week) plus a fifth of the capital in a thin token bought on day 0 and marked 4 %
   * higher every week for two years, each mark with `confidence` (none: a mark nobody vouches for).
   */
  function withThinToken(confidence: number | undefined, weekly = 1.04): LedgerInput {
    const days = 730;
    const base = skilled(days, 2);
    const marks: NonNullable<LedgerInput["prices"]> = [];
    for (let w = 1; w * 7 < days - 2; w++)
      marks.push({
        symbol: "THIN",
        time: iso(T0 + w * 7 * DAY),
        price: Math.pow(weekly, w),
        ...(confidence === undefined ? {} : { confidence, source: "defillama" }),
      });
    return {
      ...base,
      asOf: iso(T0 + (days - 1) * DAY),
      cashFlows: [...base.cashFlows!, { account: "main", time: iso(T0 - DAY), amount: 25_000 }],
      trades: [
        ...base.trades,
        {
          id: "thin",
          account: "main",
          time: iso(T0 - DAY / 2),
          symbol: "THIN",
          assetClass: "crypto",
          side: "buy",
          quantity: 25_000,
          price: 1,
        },
      ],
      prices: marks,
    };
  }

  it("a thin token marked up 4 % a week does not lift the tier: held at cost, listed, counted", () => {
    const base = run(skilled(730, 2));
    const vouched = run(withThinToken(0.95));
    // The gaming case: the same marks, vouched for, lift a Master record to Legend.
    expect(base.tier).toBe("Master");
    expect(vouched.tier).toBe("Legend");
    for (const confidence of [undefined, 0.5, 0.79]) {
      const e = run(withThinToken(confidence));
      show(`thin ${confidence}`, e);
      expect(e.tier).toBe(base.tier);
      expect(e.score!).toBeLessThanOrEqual(base.score!);
      expect(e.metrics.positionsAtCost).toBe(1);
      expect(e.warnings).toContain(
        "Data quality: 1 position valued at cost: no reliable price (THIN). A price its source does not vouch for never raises a value.",
      );
      const thin = e.positions.find((p) => p.symbol === "THIN")!;
      expect(thin.mark).toBe(1);
      expect(thin.unrealizedPnl).toBe(0);
    }
    expect(vouched.metrics.positionsAtCost).toBeUndefined();
  });

  it("an untrusted mark still lowers a value: a token marked down is valued down", () => {
    const atCost = run(withThinToken(undefined));
    const falling = run(withThinToken(undefined, 0.99));
    const thin = falling.positions.find((p) => p.symbol === "THIN")!;
    expect(thin.mark).toBeCloseTo(Math.pow(0.99, 103), 12);
    expect(falling.metrics.unrealizedPnl).toBeLessThan(atCost.metrics.unrealizedPnl - 10_000);
    expect(falling.metrics.positionsAtCost).toBeUndefined();
  });

  /**
   * The same record with the thin token pumped by the trader's own fills instead of marks: a unit
   * bought every week at 4 % more, in a pool nobody else trades, each fill with `confidence`.
   */
  function withOwnFills(confidence: number | undefined): LedgerInput {
    const input = withThinToken(1);
    const fills = input.prices!.map((m, w) => ({
      id: `pump${w}`,
      account: "main",
      time: m.time,
      symbol: "THIN",
      assetClass: "crypto" as const,
      side: "buy" as const,
      quantity: 1,
      price: m.price,
      ...(confidence === undefined ? {} : { confidence }),
    }));
    return { ...input, prices: [], trades: [...input.trades, ...fills] };
  }

  it("v3.4: the trader's own fills in a thin token do not lift the tier either", () => {
    const base = run(skilled(730, 2));
    // Fills count as market prices unless their source says otherwise: pumped, they lift the record.
    const pumped = run(withOwnFills(undefined));
    expect(pumped.tier).toBe("Legend");
    for (const confidence of [0, 0.5, 0.79]) {
      const e = run(withOwnFills(confidence));
      show(`own fills ${confidence}`, e);
      expect(e.tier).toBe(base.tier);
      expect(e.score!).toBeLessThanOrEqual(base.score!);
      expect(e.metrics.positionsAtCost).toBe(1);
      const thin = e.positions.find((p) => p.symbol === "THIN")!;
      // Held at the first price paid; the units bought dearer than it are worth less than they cost.
      expect(thin.mark).toBe(1);
      expect(thin.quantity).toBe(
        25_000 + withOwnFills(confidence).trades.filter((t) => String(t.id).startsWith("pump")).length,
      );
      expect(thin.unrealizedPnl).toBeLessThan(0);
    }
  });

  it("v3.4: a fill not vouched for still lowers a value and books its cash", () => {
    const input = withThinToken(1);
    const sale = (price: number, confidence?: number) =>
      run({
        ...input,
        prices: [],
        trades: [
          ...input.trades,
          {
            id: "dump",
            account: "main",
            time: iso(T0 + 30 * DAY),
            symbol: "THIN",
            assetClass: "crypto",
            side: "sell",
            quantity: 1_000,
            price,
            ...(confidence === undefined ? {} : { confidence }),
          },
        ],
      });
    const down = sale(0.5, 0);
    const thin = down.positions.find((p) => p.symbol === "THIN")!;
    expect(thin.mark).toBe(0.5);
    expect(thin.quantity).toBe(24_000);
    // A sale above the trusted price is real cash: its P&L is booked, but the rest stays at cost.
    const up = sale(3, 0);
    const vouched = sale(3);
    expect(up.metrics.realizedPnl - vouched.metrics.realizedPnl).toBeCloseTo(0, 6);
    expect(up.positions.find((p) => p.symbol === "THIN")!.mark).toBe(1);
    expect(vouched.positions.find((p) => p.symbol === "THIN")!.mark).toBe(3);
  });
});

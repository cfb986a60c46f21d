import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GLOSSARY } from "~/content/glossary";
import { grade, parseLedger, type Metrics } from "~/grading";
import {
  BENCHMARK_METRICS,
  CARD_METRICS,
  cardMetric,
  cardSlots,
  cardTone,
  formatMetric,
  metricValue,
  METRICS,
  shownValue,
  type MetricDefinition,
  type MetricKey,
  type MetricPath,
} from "./metrics";

// Fails to compile when a key is not one of the engine's fields (or a benchmark's, "benchmark.psr").
const KEYS = Object.keys(METRICS) as MetricKey[] satisfies readonly MetricPath[];
const CURRENCY_ONLY: readonly MetricKey[] = ["localReturn", "currencyReturn", "fxPnl", "fxRealizedPnl"];
// Only for a ledger with a position held at cost for want of a trusted price.
const AT_COST_ONLY: readonly MetricKey[] = ["positionsAtCost"];

/** Fixture 30 (docs/GRADING.md §6b): a record against the S&P 500 with a 5 % risk-free rate. */
function withBenchmark(): Metrics {
  const file = join(__dirname, "../../test/fixtures/ledgers/30-risk-free.json");
  const r = parseLedger(JSON.parse(readFileSync(file, "utf8")));
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger).metrics;
}

describe("the metric list", () => {
  it("names every metric by a field the engine computes", () => {
    const r = parseLedger({
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
      trades: [
        {
          id: "1",
          account: "a",
          time: "2024-01-02",
          symbol: "X",
          assetClass: "stock",
          side: "buy",
          quantity: 10,
          price: 10,
        },
        {
          id: "2",
          account: "a",
          time: "2024-01-05",
          symbol: "X",
          assetClass: "stock",
          side: "sell",
          quantity: 10,
          price: 12,
        },
      ],
    });
    if (!r.ok) throw new Error(r.problems.join("\n"));
    const m = grade(r.ledger, {}).metrics;
    // The currency's figures exist only for a ledger holding another currency than its base.
    const foreign = parseLedger({
      ...r.ledger,
      trades: r.ledger.trades.map((t) => ({ ...t, currency: "EUR" })),
      fxRates: { source: "test", rates: [{ currency: "EUR", time: "2024-01-01", rate: 1.1 }] },
    });
    if (!foreign.ok) throw new Error(foreign.problems.join("\n"));
    const fm = grade(foreign.ledger, {}).metrics;
    // A mark nobody vouches for above the last trade's price: held at cost.
    const thin = parseLedger({
      ...r.ledger,
      asOf: "2024-01-04",
      prices: [{ symbol: "X", time: "2024-01-03", price: 11 }],
    });
    if (!thin.ok) throw new Error(thin.problems.join("\n"));
    const tm = grade(thin.ledger, {}).metrics;
    // The market's figures exist only for a ledger graded against a benchmark.
    const bm = withBenchmark();
    const has = (metrics: Metrics, k: MetricKey) => metricValue(metrics, k) !== undefined;
    for (const k of KEYS)
      expect(
        has(m, k) ||
          (CURRENCY_ONLY.includes(k) && has(fm, k)) ||
          (AT_COST_ONLY.includes(k) && has(tm, k)) ||
          (BENCHMARK_METRICS.some((b) => b === k) && has(bm, k)),
        k,
      ).toBe(true);
    for (const k of [...CURRENCY_ONLY, ...AT_COST_ONLY, ...BENCHMARK_METRICS]) expect(has(m, k), k).toBe(false);
  });

  it("reads each benchmark figure from the engine's benchmark, as docs/GRADING.md's fixture 30 has them", () => {
    expect(BENCHMARK_METRICS).toEqual([
      "benchmark.return",
      "benchmark.excess",
      "benchmark.alphaT",
      "benchmark.sharpe",
      "benchmark.psr",
      "benchmark.monthsAhead",
    ]);
    const m = withBenchmark();
    for (const k of BENCHMARK_METRICS) expect(typeof metricValue(m, k), k).toBe("number");
    expect(BENCHMARK_METRICS.map((k) => formatMetric(k, metricValue(m, k)))).toEqual([
      "+3.2%",
      "+4.2%",
      "0.99",
      "6.65",
      "60% likely",
      "100.0%",
    ]);
    expect(metricValue({ ...m, benchmark: null }, "benchmark.psr")).toBeUndefined();
    expect(metricValue(m, "riskFreeRate")).toBeCloseTo(0.05, 6);
  });

  it("leaves out a figure the grade lacks, and those whose null or zero says nothing", () => {
    const m = withBenchmark();
    expect(shownValue({ ...m, benchmark: { ...m.benchmark!, excess: null } }, "benchmark.excess")).toBeNull();
    expect(shownValue({ ...m, benchmark: null }, "benchmark.excess")).toBeUndefined();
    // Engine 3.0's benchmark had no Sharpe ratio of its own.
    expect(
      shownValue({ ...m, benchmark: { ...m.benchmark!, sharpe: undefined! } }, "benchmark.sharpe"),
    ).toBeUndefined();
    expect(shownValue({ ...m, riskFreeRate: null }, "riskFreeRate")).toBeUndefined();
    expect(shownValue({ ...m, positionsAtCost: 0 }, "positionsAtCost")).toBeUndefined();
    expect(shownValue({ ...m, positionsAtCost: 2 }, "positionsAtCost")).toBe(2);
    expect(shownValue({ ...m, profitFactor: null }, "profitFactor")).toBeNull();
  });

  it("gives every metric a label and one glossary sentence, which the glossary shows once", () => {
    const terms = Object.values(GLOSSARY).map((e) => e.term);
    const texts = Object.values(GLOSSARY).map((e) => e.text);
    for (const k of KEYS) {
      const m: MetricDefinition = METRICS[k];
      expect(m.label.trim(), k).not.toBe("");
      expect(m.glossary, k).toMatch(/^[A-Z0-9].*\.$/);
      expect(m.glossary.length, k).toBeLessThan(200);
      expect(
        terms.filter((t) => t === m.label),
        k,
      ).toHaveLength(1);
      expect(
        texts.filter((t) => t === m.glossary),
        k,
      ).toHaveLength(1);
      expect(GLOSSARY[k === "roundTrips" ? "trips" : k], k).toEqual({ term: m.label, text: m.glossary });
    }
    expect(new Set(KEYS.map((k) => METRICS[k].label)).size).toBe(KEYS.length);
    // No other entry names or explains a figure of the list in its own words (it had "Benchmark", "Excess return").
    expect(terms.filter((t) => /benchmark|excess/i.test(t))).toEqual(
      KEYS.filter((k) => /benchmark|excess/i.test(METRICS[k].label)).map((k) => METRICS[k].label),
    );
  });

  it("fills each of the card's four slots once, whichever the privacy choice", () => {
    for (const amounts of [true, false]) {
      expect(cardSlots(amounts).map((k) => METRICS[k].card.slot)).toEqual([1, 2, 3, 4]);
    }
    const places = CARD_METRICS.map((k) => {
      const card = METRICS[k].card as NonNullable<MetricDefinition["card"]>;
      return `${card.slot}:${card.when ?? "always"}`;
    });
    expect(new Set(places).size).toBe(places.length);
    expect(cardSlots(true).map((k) => METRICS[k].label)).toEqual([
      "Time-weighted return",
      "Max drawdown",
      "Win rate",
      "Total P&L",
    ]);
    expect(cardSlots(false).at(-1)).toBe("mwr");
  });
});

describe("a metric's figure", () => {
  it("reads on the card with a true minus, a plus on gains and a fall for a drawdown", () => {
    expect(cardMetric("twr", 0.1234)).toBe("+12.3%");
    expect(cardMetric("twr", 123456.78)).toBe("+12.3M%");
    expect(cardMetric("maxDrawdown", 0.2)).toBe("\u221220.0%");
    expect(cardMetric("maxDrawdown", 0)).toBe("0.0%");
    expect(cardMetric("winRate", 0.5)).toBe("50.0%");
    expect(cardMetric("totalPnl", -98_765_432)).toBe("\u2212$98.7M");
    expect(cardMetric("mwr", null)).toBe("—");
    expect([cardTone("twr", -0.1), cardTone("maxDrawdown", 0.2), cardTone("maxDrawdown", 0)]).toEqual([
      "down",
      "down",
      "flat",
    ]);
    expect([cardTone("winRate", 0.9), cardTone("totalPnl", 5), cardTone("mwr", null)]).toEqual(["flat", "up", "flat"]);
  });

  it("reads in the report as on the card: a percentage is one string everywhere", () => {
    expect(formatMetric("twr", -0.0456)).toBe("\u22124.6%");
    expect(formatMetric("twr", 12.345)).toBe("+1,234.5%");
    expect(formatMetric("maxDrawdown", 0.2)).toBe("\u221220.0%");
    expect(formatMetric("maxDrawdown", 0)).toBe("0.0%");
    expect(formatMetric("winRate", 0.5)).toBe("50.0%");
    for (const k of CARD_METRICS.filter((k) => METRICS[k].format === "percent"))
      for (const v of [-123.4, -0.0456, 0, 0.1234, 99999, null, undefined])
        expect(formatMetric(k, v), `${k} ${v}`).toBe(cardMetric(k, v));
    expect(formatMetric("profitFactor", null)).toBe("no losses");
    expect(formatMetric("profitFactor", 1.856)).toBe("1.86");
    expect(formatMetric("sharpe", undefined)).toBe("—");
    expect(formatMetric("avgHoldingDays", 3.21)).toBe("3.2 days");
    expect(formatMetric("trackRecordDays", 412.4)).toBe("412 days");
    expect(formatMetric("activeDays", 12_345)).toBe("12.3K");
    expect(formatMetric("psr", 0.8712)).toBe("87% likely");
    expect(formatMetric("maxLeverage", 1.5)).toBe("1.50×");
    expect(formatMetric("totalPnl", 1234.5)).toBe("$1,234.50");
  });
});

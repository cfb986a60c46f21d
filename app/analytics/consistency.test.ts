// "One truth on every page": the Stats page agrees with itself. Property tests (fast-check) over
// random ledgers graded by the engine: every figure the page prints against the chart or table
// beside it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grade, listRoundTrips, parseLedger, type Evaluation, type LedgerInput, type RoundTrip } from "~/grading";
import { sampleIndexes } from "~/lib/chart-scale";
import { formatPercent, formatUsd } from "~/lib/format-number";
import { cardPercent, formatMetric } from "~/lib/metrics";
import { analyse, calendarWindow, recordDays, SHARE_MIN_NET_OF_GROSS } from "./index";

const DAY = 86_400_000;
const BASE = Date.UTC(2024, 10, 3);
const SYMBOLS = [
  { symbol: "AAA", assetClass: "stock" },
  { symbol: "BBB", assetClass: "stock" },
  { symbol: "EEE", assetClass: "etf" },
] as const;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A random trader over up to two years: round trips of one symbol each (buy, then sell at another
 * price), a deposit, marks in between, an asOf after the last trade. `dateOnly`: every trade at
 * 20:00 UTC, as Plaid's dates are stamped.
 */
const graded = fc
  .record({
    trips: fc.array(
      fc.record({
        s: fc.integer({ min: 0, max: 2 }),
        day: fc.integer({ min: 0, max: 700 }),
        minute: fc.integer({ min: 0, max: 1439 }),
        hold: fc.integer({ min: 0, max: 60 }),
        price: fc.integer({ min: 1_000, max: 50_000 }),
        move: fc.integer({ min: -400, max: 400 }),
        quantity: fc.integer({ min: 1, max: 50 }),
      }),
      { minLength: 1, maxLength: 25 },
    ),
    marks: fc.array(
      fc.record({
        s: fc.integer({ min: 0, max: 2 }),
        day: fc.integer({ min: 0, max: 760 }),
        price: fc.integer({ min: 1_000, max: 50_000 }),
      }),
      { maxLength: 10 },
    ),
    tail: fc.integer({ min: 0, max: 120 }),
    dateOnly: fc.boolean(),
  })
  .map(({ trips, marks, tail, dateOnly }) => {
    const at = (day: number, minute: number) => BASE + day * DAY + (dateOnly ? 20 * 60 : minute) * 60_000;
    const trades: LedgerInput["trades"] = [];
    let last = BASE;
    trips.forEach((t, i) => {
      const sym = SYMBOLS[t.s]!;
      const open = at(t.day, t.minute);
      const close = at(t.day + t.hold, t.minute) + (dateOnly ? 0 : 60_000);
      last = Math.max(last, close);
      const common = { account: "a", symbol: sym.symbol, assetClass: sym.assetClass, quantity: t.quantity, fee: 0 };
      trades.push({ ...common, id: `o${i}`, time: iso(open), side: "buy", price: t.price / 100 });
      const exit = (t.price * (1 + t.move / 1000)) / 100;
      trades.push({ ...common, id: `c${i}`, time: iso(close), side: "sell", price: exit });
    });
    const asOf = last + tail * DAY + 3_600_000;
    const input: LedgerInput = {
      asOf: iso(asOf),
      trades,
      cashFlows: [{ account: "a", time: iso(BASE - DAY), amount: 1_000_000 }],
      prices: marks.map((m) => ({
        symbol: SYMBOLS[m.s]!.symbol,
        time: iso(Math.min(asOf, BASE + m.day * DAY)),
        price: m.price / 100,
      })),
    };
    const parsed = parseLedger(input);
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const evaluation: Evaluation = grade(parsed.ledger);
    const roundTrips: RoundTrip[] = listRoundTrips(parsed.ledger);
    return { evaluation, roundTrips, dateOnly, asOf };
  });

const RUNS = { numRuns: 60 };

describe("the Stats page agrees with itself (random grades)", () => {
  it("the drawdown chart's low is the max drawdown beside it", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e }) => {
        if (e.metrics.maxDrawdown === null) return;
        const ys = e.curve.map((c) => -c.drawdown);
        const low = Math.min(...sampleIndexes(ys).map((i) => ys[i]!));
        expect(formatMetric("maxDrawdown", -low)).toBe(formatMetric("maxDrawdown", e.metrics.maxDrawdown));
        expect(low).toBeCloseTo(-e.metrics.maxDrawdown, 12);
      }),
      RUNS,
    );
  });

  it("a chart keeps every peak and trough of a long series, the first and last points, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 201, maxLength: 2_000 }), (ys) => {
        const kept = sampleIndexes(ys);
        expect(kept.length).toBeLessThanOrEqual(Math.max(200, 2));
        expect(kept[0]).toBe(0);
        expect(kept.at(-1)).toBe(ys.length - 1);
        for (let i = 1; i < kept.length; i++) expect(kept[i]!).toBeGreaterThan(kept[i - 1]!);
        const drawn = kept.map((i) => ys[i]!);
        expect(Math.min(...drawn)).toBe(Math.min(...ys));
        expect(Math.max(...drawn)).toBe(Math.max(...ys));
      }),
    );
  });

  it("monthly returns compound to each year's and to the period's return", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e, roundTrips }) => {
        if (e.metrics.twr === null) return;
        const a = analyse(e.curve, roundTrips, { timeZone: "UTC" });
        let all = 1;
        for (const y of a.monthly) {
          let year = 1;
          for (const m of y.months) if (m !== null) year *= 1 + m;
          expect(year - 1).toBeCloseTo(y.total ?? 0, 9);
          all *= year;
        }
        expect(all - 1).toBeCloseTo(e.metrics.twr, 9);
      }),
      RUNS,
    );
  });

  it("the calendar covers exactly the last 12 months up to today: no future day, nothing older", () => {
    fc.assert(
      fc.property(graded, fc.integer({ min: 0, max: 400 }), ({ evaluation: e, roundTrips, asOf }, after) => {
        const today = iso(asOf + after * DAY).slice(0, 10);
        const a = analyse(e.curve, roundTrips, { timeZone: "UTC", today });
        expect(a.calendarTo).toBe(today);
        const { from } = calendarWindow(today);
        expect(a.calendarFrom).toBe(from);
        // Twelve months: from the day after the same date a year before.
        const span = (Date.parse(today) - Date.parse(from)) / DAY + 1;
        expect([365, 366]).toContain(span);
        expect(Date.parse(today) - Date.parse(from)).toBeLessThan(366 * DAY);
        for (const d of a.calendar) {
          expect(d.date >= from && d.date <= today).toBe(true);
        }
        // Every curve day of the window is on it.
        const inWindow = e.curve.filter((c) => c.date >= from && c.date <= today).map((c) => c.date);
        expect(a.calendar.map((d) => d.date)).toEqual(inWindow);
      }),
      RUNS,
    );
  });

  it("no month or day after the last price of open positions shows a return; what is shown still compounds", () => {
    fc.assert(
      fc.property(graded, fc.integer({ min: 0, max: 800 }), ({ evaluation: e, roundTrips }, k) => {
        const pricedThrough = e.curve[Math.min(k, e.curve.length - 1)]!.date;
        const a = analyse(e.curve, roundTrips, { timeZone: "UTC", pricedThrough, today: e.curve.at(-1)!.date });
        const last = e.curve.at(-1)!.date;
        expect(a.pricedThrough).toBe(pricedThrough < last ? pricedThrough : null);
        for (const y of a.monthly)
          y.months.forEach((m, i) => {
            if (`${y.year}-${String(i + 1).padStart(2, "0")}` > pricedThrough.slice(0, 7)) expect(m).toBeNull();
          });
        for (const d of a.calendar) if (d.date > pricedThrough) expect(d.return).toBeNull();
        // The priced months compound to the index at the last priced month's end.
        const monthEnd = new Map(e.curve.map((c) => [c.date.slice(0, 7), c.index]));
        let all = 1;
        for (const y of a.monthly) for (const m of y.months) if (m !== null) all *= 1 + m;
        expect(all).toBeCloseTo(monthEnd.get(pricedThrough.slice(0, 7))!, 9);
      }),
      RUNS,
    );
  });

  it("the engine's return insight counts the days the page prints", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e }) => {
        const text = e.insights.find((i) => i.id === "return")?.text;
        fc.pre(text !== undefined);
        const days = formatMetric("trackRecordDays", recordDays(e.curve.length, e.metrics.activeDays).days);
        expect(text).toContain(` over ${days}`);
      }),
      RUNS,
    );
  });

  it("day counts add up: the active days are among the record's days", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e }) => {
        const d = recordDays(e.curve.length, e.metrics.activeDays);
        expect(d.days).toBe(new Set(e.curve.map((c) => c.date)).size);
        expect(d.active).not.toBeNull();
        expect(d.active!).toBeLessThanOrEqual(d.days);
        expect(Number(formatMetric("activeDays", d.active).replaceAll(",", ""))).toBeLessThanOrEqual(
          Number(formatMetric("trackRecordDays", d.days).replace(" days", "").replaceAll(",", "")),
        );
      }),
      RUNS,
    );
  });

  it("no P&L share of a net result near zero; when shown, the shares add up to the net's sign", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e, roundTrips }) => {
        const a = analyse(e.curve, roundTrips, { timeZone: "UTC" });
        const net = roundTrips.reduce((s, t) => s + t.pnl, 0);
        const gross = roundTrips.reduce((s, t) => s + Math.abs(t.pnl), 0);
        const tables = [a.bySymbol, a.byAssetClass, a.bySide, a.byWeekday, a.byHour, a.byHolding];
        if (gross === 0 || Math.abs(net) < SHARE_MIN_NET_OF_GROSS * gross) {
          expect(a.sharesMeaningful).toBe(false);
          for (const rows of tables) for (const r of rows) expect(r.pnlShare).toBeNull();
          return;
        }
        expect(a.sharesMeaningful).toBe(true);
        for (const rows of tables) {
          if (rows.length === 0) continue;
          const sum = rows.reduce((s, r) => s + (r.pnlShare ?? 0), 0);
          expect(sum).toBeCloseTo(Math.sign(net), 9);
          // A share is at most gross ÷ |net| ≤ 1 ÷ SHARE_MIN_NET_OF_GROSS in size.
          for (const r of rows) expect(Math.abs(r.pnlShare!)).toBeLessThanOrEqual(1 / SHARE_MIN_NET_OF_GROSS + 1e-9);
        }
      }),
      RUNS,
    );
  });

  it("no hour-of-day table for a broker that gives dates only", () => {
    fc.assert(
      fc.property(graded, ({ evaluation: e, roundTrips, dateOnly }) => {
        const a = analyse(e.curve, roundTrips, { timeZone: "America/New_York" });
        if (dateOnly) {
          expect(a.hoursKnown).toBe(false);
          expect(a.byHour).toEqual([]);
          // The weekday is the broker's date's, whatever the trader's zone.
          const weekdays = a.byWeekday.reduce((s, r) => s + r.trips, 0);
          expect(weekdays).toBe(roundTrips.length);
          for (const t of roundTrips) {
            const wd = (new Date(t.openTime).getUTCDay() + 6) % 7;
            expect(a.byWeekday[wd]!.trips).toBeGreaterThan(0);
          }
        } else if (new Set(roundTrips.map((t) => Date.parse(t.openTime) % DAY)).size > 1) {
          expect(a.hoursKnown).toBe(true);
          expect(a.byHour.reduce((s, r) => s + r.trips, 0)).toBe(roundTrips.length);
        }
      }),
      RUNS,
    );
  });
});

describe("one number format", () => {
  it("percentages and dollars carry a true minus, never a hyphen, and no sign on a zero", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 2 }), (v, digits) => {
        for (const text of [
          cardPercent(v, true, digits),
          cardPercent(v, false, digits),
          formatPercent(v, digits),
          formatUsd(v),
        ])
          expect(text).not.toContain("-");
        for (const k of ["sharpe", "sortino", "maxLeverage", "totalPnl", "twr", "maxDrawdown"] as const)
          expect(formatMetric(k, v)).not.toContain("-");
        if (Math.abs(v) < 0.5 * 10 ** -(digits + 2)) expect(cardPercent(v, true, digits)).toMatch(/^0(\.0+)?%$/);
      }),
    );
  });

  it("the Stats tab's percentages read as the report's: +12.3%, −4.5%", () => {
    expect(cardPercent(0.123)).toBe("+12.3%");
    expect(cardPercent(-0.045)).toBe("\u22124.5%");
    expect(cardPercent(0.0072, true, 2)).toBe("+0.72%");
    expect(cardPercent(0.566, false, 0)).toBe("57%");
    expect(formatMetric("maxDrawdown", 0.117)).toBe("\u221211.7%");
  });
});

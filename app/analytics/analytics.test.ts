import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { grade, listRoundTrips, parseLedger, type Ledger, type RoundTrip } from "~/grading";
import { mulberry32 } from "../../test/mocks/random";
import {
  analyse,
  holdingBucket,
  monthlyReturns,
  returnHistogram,
  streaksOf,
  withoutAmounts,
  zonedClock,
  type BreakdownRow,
} from "./index";
import { journalPage, journalRows, parseJournalQuery } from "./journal";

function fixture(name: string): Ledger {
  const parsed = parseLedger(JSON.parse(fs.readFileSync(`test/fixtures/ledgers/${name}`, "utf8")));
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.ledger;
}

/** A fixture account: four symbols in two classes, longs and shorts, minutes to weeks, ~9 months. */
function generatedAccount(): Ledger {
  const rnd = mulberry32(19);
  const symbols = [
    { symbol: "AAPL", assetClass: "stock" as const, price: 180 },
    { symbol: "SPY", assetClass: "etf" as const, price: 450 },
    { symbol: "TSLA", assetClass: "stock" as const, price: 240 },
    { symbol: "BTC", assetClass: "crypto" as const, price: 40_000 },
  ];
  const trades: Ledger["trades"] = [];
  let t = Date.parse("2024-01-02T14:30:00Z");
  for (let i = 0; i < 120; i++) {
    const s = symbols[Math.floor(rnd() * symbols.length)]!;
    const short = s.assetClass !== "crypto" && rnd() < 0.3;
    const qty = s.assetClass === "crypto" ? 0.05 : 10;
    const hold = [20 * 60_000, 5 * 3_600_000, 3 * 86_400_000, 12 * 86_400_000, 40 * 86_400_000][Math.floor(rnd() * 5)]!;
    const entry = s.price * (1 + (rnd() - 0.5) * 0.02);
    const exit = entry * (1 + (rnd() - 0.45) * 0.08);
    // One account per trip, so overlapping holds stay separate round trips.
    const open = { account: `a${i % 40}`, symbol: s.symbol, assetClass: s.assetClass, quantity: qty, fee: 1 };
    trades.push({ ...open, id: `o${i}`, time: new Date(t).toISOString(), side: short ? "sell" : "buy", price: entry });
    trades.push({
      ...open,
      id: `c${i}`,
      time: new Date(t + hold).toISOString(),
      side: short ? "buy" : "sell",
      price: exit,
    });
    t += 2 * 86_400_000 + Math.floor(rnd() * 8) * 3_600_000;
  }
  const parsed = parseLedger({
    cashFlows: [{ account: "main", time: "2024-01-01T00:00:00Z", amount: 50_000 }],
    trades,
    asOf: new Date(t + 60 * 86_400_000).toISOString(),
  });
  if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
  return parsed.ledger;
}

const sum = (rows: BreakdownRow[], k: "trips" | "wins" | "losses" | "pnl") => rows.reduce((s, r) => s + (r[k] ?? 0), 0);

describe("analytics against the engine", () => {
  it("fixture 07: five −200 trips then a +500 one — breakdowns, streaks and months match the grade", () => {
    const ledger = fixture("07-losing-streak.json");
    const e = grade(ledger);
    const trips = listRoundTrips(ledger);
    const a = analyse(e.curve, trips, { timeZone: "UTC" });
    expect(a.trips).toBe(e.metrics.roundTrips);
    expect(a.trips).toBe(6);
    expect(a.wins / a.trips).toBeCloseTo(e.metrics.winRate!, 12);
    expect(a.totalPnl).toBeCloseTo(-500, 9);
    expect(a.streaks).toEqual({ longestWin: 1, longestLoss: 5, current: { kind: "win", length: 1 } });
    expect(a.bySymbol.map((r) => [r.key, r.trips, r.wins, r.pnl])).toEqual([["LOSS", 6, 1, -500]]);
    expect(a.bySymbol[0]!.expectancy).toBeCloseTo(e.metrics.expectancy!, 12);
    // Day trades opened at 10:00 UTC; in New York that is 05:00 (EST).
    expect(a.hoursKnown).toBe(true);
    expect(a.byHour.find((r) => r.key === "10")!.trips).toBe(6);
    const ny = analyse(e.curve, trips, { timeZone: "America/New_York" });
    expect(ny.byHour.find((r) => r.key === "5")!.trips).toBe(6);
    // One month, January 2024: the index went from 1 to 0.95.
    expect(a.monthly).toHaveLength(1);
    expect(a.monthly[0]!.months[0]).toBeCloseTo(-0.05, 12);
    expect(a.monthly[0]!.total).toBeCloseTo(-0.05, 12);
    expect(a.byHolding.find((r) => r.key === "1h-1d")!.trips).toBe(6);
  });

  it("a date-only history (every trade stamped 20:00 UTC) has no hour table, and its weekdays are its dates", () => {
    const trips = listRoundTrips(fixture("07-losing-streak.json")).map((t) => ({
      ...t,
      openTime: `${t.openTime.slice(0, 10)}T20:00:00.000Z`,
      closeTime: `${t.closeTime.slice(0, 10)}T20:00:00.000Z`,
    }));
    const utc = analyse([], trips, { timeZone: "UTC" });
    const tokyo = analyse([], trips, { timeZone: "Asia/Tokyo" });
    expect(utc.hoursKnown).toBe(false);
    expect(utc.byHour).toEqual([]);
    expect(tokyo.byHour).toEqual([]);
    expect(tokyo.byWeekday.map((r) => r.trips)).toEqual(utc.byWeekday.map((r) => r.trips));
  });

  it("a generated account: every breakdown adds up to the grade's round trips, wins and P&L", () => {
    const ledger = generatedAccount();
    const e = grade(ledger);
    const trips = listRoundTrips(ledger);
    const a = analyse(e.curve, trips, { timeZone: "Asia/Tokyo" });
    const m = e.metrics;
    expect(m.roundTrips).toBeGreaterThan(100);
    const realizedOfTrips = m.expectancy! * m.roundTrips; // the engine's mean × count = Σ trip P&L
    for (const rows of [a.bySymbol, a.byAssetClass, a.bySide, a.byWeekday, a.byHour, a.byHolding]) {
      expect(sum(rows, "trips")).toBe(m.roundTrips);
      expect(sum(rows, "wins") / m.roundTrips).toBeCloseTo(m.winRate!, 12);
      expect(sum(rows, "pnl")).toBeCloseTo(realizedOfTrips, 6);
      // Signed shares add up to ±1 (the net result), when it is far enough from zero to share out.
      if (a.sharesMeaningful)
        expect(rows.reduce((s, r) => s + (r.pnlShare ?? 0), 0)).toBeCloseTo(Math.sign(realizedOfTrips), 9);
      else for (const r of rows) expect(r.pnlShare).toBeNull();
      for (const r of rows) if (r.trips) expect(r.expectancy! * r.trips).toBeCloseTo(r.pnl!, 6);
    }
    // Every trip is closed here, so realized P&L is exactly the trips' P&L.
    expect(realizedOfTrips).toBeCloseTo(m.realizedPnl, 6);
    expect(a.bySide.map((r) => r.key)).toEqual(["long", "short"]);
    expect(a.bySide[1]!.trips).toBeGreaterThan(0);
    expect(a.byAssetClass.map((r) => r.key).sort()).toEqual(["crypto", "etf", "stock"]);
    // Winners in the breakdown are the engine's: mean winner and loser from the same trips.
    const winners = trips.filter((t) => t.pnl > 0);
    expect(winners.reduce((s, t) => s + t.pnl, 0) / winners.length).toBeCloseTo(m.avgWin!, 6);
    // Histogram counts every trip with a return; best/worst are the extremes.
    expect(a.histogram.reduce((s, b) => s + b.count, 0)).toBe(trips.filter((t) => t.return !== null).length);
    expect(a.best[0]!.pnl).toBe(Math.max(...trips.map((t) => t.pnl)));
    expect(-a.worst[0]!.pnl!).toBeCloseTo(m.largestLossAmount!, 9);
    // Months chain to the time-weighted return; each year's total chains its months.
    const chained = a.monthly.reduce((p, y) => p * (1 + y.total!), 1) - 1;
    expect(chained).toBeCloseTo(m.twr!, 9);
    for (const y of a.monthly)
      expect(y.months.reduce<number>((p, r) => p * (1 + (r ?? 0)), 1) - 1).toBeCloseTo(y.total!, 9);
    // The calendar's daily P&L adds up to the total P&L (no flows after the first day here).
    expect(a.calendar.reduce((s, d) => s + d.pnl!, 0)).toBeCloseTo(m.totalPnl, 6);
    expect(a.calendar).toHaveLength(e.curve.length);
  });

  it("hides every dollar figure for another trader when amounts are hidden", () => {
    const ledger = generatedAccount();
    const e = grade(ledger);
    const a = withoutAmounts(analyse(e.curve, listRoundTrips(ledger), { timeZone: "UTC", rankBy: "return" }));
    const text = JSON.stringify(a);
    expect(a.totalPnl).toBeNull();
    expect(a.bySymbol.every((r) => r.pnl === null && r.expectancy === null && r.winRate !== null)).toBe(true);
    expect(a.calendar.every((d) => d.pnl === null)).toBe(true);
    expect([...a.best, ...a.worst].every((t) => t.pnl === null && t.entryNotional === null && t.return !== null)).toBe(
      true,
    );
    expect(text).not.toMatch(/"(pnl|expectancy|entryNotional)":-?\d/);
  });
});

describe("analytics pieces", () => {
  it("monthly returns chain the index month by month, with year totals", () => {
    const curve = [
      { date: "2023-12-31", index: 1.1 },
      { date: "2024-01-15", index: 1.0 },
      { date: "2024-01-31", index: 1.21 },
      { date: "2024-03-31", index: 1.089 },
    ];
    const [y23, y24] = monthlyReturns(curve);
    expect(y23!.months[11]).toBeCloseTo(0.1, 12);
    expect(y23!.total).toBeCloseTo(0.1, 12);
    expect(y24!.months[0]).toBeCloseTo(0.1, 12);
    expect(y24!.months[1]).toBeNull();
    expect(y24!.months[2]).toBeCloseTo(-0.1, 12);
    expect(y24!.total).toBeCloseTo(1.089 / 1.1 - 1, 12);
  });

  it("buckets holding times and returns at their edges", () => {
    expect([0.01, 1 / 24, 0.5, 1, 6.9, 7, 29, 30, 400].map(holdingBucket)).toEqual([
      "lt1h",
      "1h-1d",
      "1h-1d",
      "1-7d",
      "1-7d",
      "7-30d",
      "7-30d",
      "gt30d",
      "gt30d",
    ]);
    const h = returnHistogram([-0.6, -0.5, 0, 0.004, 0.5, 2, null]);
    expect(h[0]).toMatchObject({ label: "below −50%", count: 1 });
    expect(h[1]).toMatchObject({ from: -0.5, count: 1 });
    expect(h.find((b) => b.from === 0)!.count).toBe(2);
    expect(h.at(-1)).toMatchObject({ label: "+50% and above", count: 2 });
  });

  it("counts streaks in closing order; a break-even trip ends one", () => {
    expect(streaksOf(["win", "win", "even", "win", "loss", "loss", "loss", "win"])).toEqual({
      longestWin: 2,
      longestLoss: 3,
      current: { kind: "win", length: 1 },
    });
    expect(streaksOf([])).toEqual({ longestWin: 0, longestLoss: 0, current: { kind: null, length: 0 } });
  });

  it("reads weekday and hour in the trader's zone across a DST change and a half-hour zone", () => {
    const ny = zonedClock("America/New_York");
    expect(ny(Date.parse("2024-03-10T06:30:00Z"))).toEqual({ weekday: 6, hour: 1 }); // Sunday 01:30 EST
    expect(ny(Date.parse("2024-03-10T07:30:00Z"))).toEqual({ weekday: 6, hour: 3 }); // 03:30 EDT
    expect(zonedClock("Asia/Kolkata")(Date.parse("2024-01-01T20:00:00Z"))).toEqual({ weekday: 1, hour: 1 }); // Tue 01:30
    expect(zonedClock("UTC")(Date.parse("2024-01-01T23:59:00Z"))).toEqual({ weekday: 0, hour: 23 });
    const london = zonedClock("Europe/London"); // BST from 01:00 UTC on 31 March 2024
    expect(
      [
        "2024-03-31T00:30:00Z",
        "2024-03-31T01:30:00Z",
        "2024-03-31T23:30:00Z",
        "2024-10-27T00:30:00Z",
        "2024-10-27T01:30:00Z",
      ].map((t) => london(Date.parse(t)).hour),
    ).toEqual([0, 2, 0, 1, 1]);
  });
});

describe("journal", () => {
  const trips: RoundTrip[] = listRoundTrips(generatedAccount());

  it("filters by symbol, side, outcome and closing dates, and pages", () => {
    const q = parseJournalQuery(
      new URLSearchParams(
        "symbol=aapl&side=long&outcome=win&from=2024-01-01&to=2024-12-31&page_size=3&sort_by=return&order=desc",
      ),
      { amounts: true },
    );
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    const all = journalRows(trips, q.query);
    const expected = trips.filter(
      (t) =>
        t.symbol === "AAPL" &&
        t.side === "long" &&
        t.pnl > 0 &&
        t.closeTime >= "2024-01-01" &&
        t.closeTime < "2025-01-01",
    );
    expect(all).toHaveLength(expected.length);
    expect(expected.length).toBeGreaterThan(3);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.return!).toBeGreaterThanOrEqual(all[i]!.return!);
    const page2 = journalPage(trips, { ...q.query, page: 2 });
    expect(page2.total).toBe(expected.length);
    expect(page2.rows).toEqual(all.slice(3, 6));
  });

  it("refuses columns off the list, P&L sorting when amounts are hidden, and bad dates", () => {
    const bad = (qs: string, amounts = true) => {
      const r = parseJournalQuery(new URLSearchParams(qs), { amounts });
      return r.ok ? null : r.errors;
    };
    expect(bad("sort_by=pnl", true)).toBeNull();
    expect(bad("sort_by=pnl", false)).toEqual({ sort_by: expect.stringMatching(/must be one of close_time/) });
    expect(bad("sort_by=entryNotional;drop")).toHaveProperty("sort_by");
    expect(bad("from=2024-02-30")).toEqual({ from: "is not a real date" });
    expect(bad("from=2024-03-01&to=2024-02-01")).toEqual({ to: "must not be before from" });
    expect(bad("side=up&page=0&page_size=500")).toMatchObject({
      side: expect.any(String),
      page: expect.any(String),
      page_size: "at most 100",
    });
    // Empty fields (a GET form sends them) are absent.
    expect(bad("symbol=&side=&outcome=&from=&to=")).toBeNull();
  });
});

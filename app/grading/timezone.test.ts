// The trader's time zone (v3.3, issue 29 point 5): days start at the trader's midnight, so a record
// moved by hours together with its zone grades the same, and a UTC ledger grades as before.
import { describe, expect, it } from "vitest";
import { canonicalJson, grade, ledgerDigest, parseLedger, type Evaluation, type LedgerInput } from "./index";
import { dayStartMs, zoneDayOf, zoneOffsetMs } from "./time";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

function run(input: LedgerInput): Evaluation {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger);
}

/**
 * An evening trader on UTC−5: four months of round trips opened at 17:00 to 21:00 local time and
 * closed 1 to 3 hours later (often past UTC midnight), a benchmark and a risk-free rate, every
 * instant `shift` ms later than on UTC−5.
 */
function evening(shift = 0): LedgerInput {
  const t0 = Date.UTC(2024, 0, 2, 22, 0) + shift; // 17:00 on UTC−5
  const trades: LedgerInput["trades"] = [];
  const prices: NonNullable<LedgerInput["prices"]> = [];
  let seed = 5;
  const rand = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  for (let d = 0; d < 120; d++) {
    if (d % 7 >= 5) continue;
    const open = t0 + d * DAY + Math.floor(rand() * 4) * HOUR;
    const close = open + (1 + Math.floor(rand() * 3)) * HOUR;
    const exit = rand() < 0.55 ? 102 : 99;
    trades.push(
      {
        id: `o${d}`,
        account: "a",
        time: iso(open),
        symbol: `S${d % 4}`,
        assetClass: "stock",
        side: "buy",
        quantity: 50,
        price: 100,
      },
      {
        id: `c${d}`,
        account: "a",
        time: iso(close),
        symbol: `S${d % 4}`,
        assetClass: "stock",
        side: "sell",
        quantity: 50,
        price: exit,
      },
    );
    prices.push({ symbol: `S${d % 4}`, time: iso(open + HOUR / 2), price: 100.5, confidence: 1 });
  }
  const bench = Array.from({ length: 130 }, (_, d) => ({
    time: iso(t0 - DAY + d * DAY),
    price: 400 * (1 + 0.001 * d),
  }));
  return {
    asOf: iso(t0 + 125 * DAY),
    cashFlows: [{ account: "a", time: iso(t0 - DAY), amount: 20_000 }],
    trades,
    prices,
    benchmark: { symbol: "SPY", prices: bench },
    riskFree: { symbol: "^IRX", rates: [{ time: iso(t0 - 2 * DAY), rate: 0.05 }] },
  };
}

/** What must not depend on where the trader lives: everything but the instants themselves. */
const graded = (e: Evaluation) =>
  canonicalJson({ ...e, asOf: null, curve: e.curve.map((p) => ({ ...p })), warnings: e.warnings.length });

describe("the trader's time zone", () => {
  it("finds where a day starts, across daylight saving time", () => {
    // New York: EST (−5 h) in January, EDT (−4 h) in July; the spring day is 23 hours long.
    expect(zoneOffsetMs("America/New_York", Date.UTC(2024, 0, 15))).toBe(-5 * HOUR);
    expect(zoneOffsetMs("America/New_York", Date.UTC(2024, 6, 15))).toBe(-4 * HOUR);
    const mar10 = Math.floor(Date.UTC(2024, 2, 10) / DAY);
    expect(iso(dayStartMs(mar10, "America/New_York"))).toBe("2024-03-10T05:00:00.000Z");
    expect(iso(dayStartMs(mar10 + 1, "America/New_York"))).toBe("2024-03-11T04:00:00.000Z");
    expect(zoneDayOf(Date.UTC(2024, 2, 10, 3, 30), "America/New_York")).toBe(mar10 - 1);
    expect(zoneDayOf(Date.UTC(2024, 2, 10, 3, 30), undefined)).toBe(mar10);
    expect(dayStartMs(mar10, "UTC")).toBe(mar10 * DAY);
  });

  it("a record moved by hours together with its zone grades exactly the same", () => {
    // Etc/GMT+5 is UTC−5 (POSIX signs); each shift moves the record's instants and its zone alike.
    const base = run({ ...evening(), timeZone: "Etc/GMT+5" });
    expect(base.metrics.roundTrips).toBeGreaterThan(70);
    // h hours later on a clock h hours behind: the same wall-clock times (UTC−(5 + h)).
    for (const h of [-13, -8, -5, -3, 1, 4, 7]) {
      const zone = 5 + h === 0 ? "UTC" : `Etc/GMT${5 + h > 0 ? "+" : "-"}${Math.abs(5 + h)}`;
      const moved = run({ ...evening(h * HOUR), timeZone: zone });
      expect(graded(moved), `${h} h, ${zone}`).toBe(graded(base));
    }
  });

  it("in UTC the same evening record splits its days at UTC midnight: the zone is what makes it whole", () => {
    const local = run({ ...evening(), timeZone: "Etc/GMT+5" });
    const utc = run(evening());
    // Trips that cross UTC midnight make two active days of one evening.
    expect(utc.metrics.activeDays).toBeGreaterThan(local.metrics.activeDays);
    // Shifted by hours without its zone, the UTC grade moves; with it, it does not.
    const shiftedUtc = run(evening(3 * HOUR));
    expect(Math.abs(shiftedUtc.score! - utc.score!)).toBeGreaterThan(0);
    const shiftedLocal = run({ ...evening(3 * HOUR), timeZone: "Etc/GMT+8" });
    expect(shiftedLocal.score).toBe(local.score);
  });

  it("names the curve's days in the trader's calendar, and keeps a UTC ledger's digest", () => {
    const input: LedgerInput = {
      asOf: "2024-03-12T12:00:00Z",
      cashFlows: [{ account: "a", time: "2024-03-08T15:00:00Z", amount: 1000 }],
      trades: [
        // Saturday 22:30 in New York, Sunday 03:30 in UTC.
        {
          id: "1",
          account: "a",
          time: "2024-03-10T03:30:00Z",
          symbol: "X",
          assetClass: "crypto",
          side: "buy",
          quantity: 1,
          price: 100,
        },
      ],
    };
    const ny = run({ ...input, timeZone: "America/New_York" });
    const utc = run(input);
    expect(ny.curve.map((p) => p.date)).toEqual(["2024-03-08", "2024-03-09", "2024-03-10", "2024-03-11", "2024-03-12"]);
    expect(utc.curve.map((p) => p.date)).toEqual([
      "2024-03-08",
      "2024-03-09",
      "2024-03-10",
      "2024-03-11",
      "2024-03-12",
    ]);
    const parse = (x: LedgerInput) => {
      const r = parseLedger(x);
      if (!r.ok) throw new Error(r.problems.join("\n"));
      return r.ledger;
    };
    expect(ledgerDigest(parse({ ...input, timeZone: "UTC" }))).toBe(ledgerDigest(parse(input)));
    expect(ledgerDigest(parse({ ...input, timeZone: "America/New_York" }))).not.toBe(ledgerDigest(parse(input)));
    expect(canonicalJson(run({ ...input, timeZone: "UTC" }))).toBe(canonicalJson(utc));
  });

  it("refuses a zone it does not know, saying what it wants", () => {
    const r = parseLedger({ trades: [], timeZone: "Mars/Olympus" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.join("\n")).toContain("timeZone: must be an IANA time zone such as America/New_York");
  });
});

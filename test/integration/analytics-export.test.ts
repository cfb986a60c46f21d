import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";

// In-process against PGlite (or DATABASE_URL's PostgreSQL): the journal API, its CSV and the
// trades CSV of a graded user, called as routes with a bearer session.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { evaluateUser, currentEvaluation } = await import("~/server/grades/evaluation.server");
const { saveImport, linkAccount } = await import("~/server/linking/imports.server");
const { createSession } = await import("~/server/http/session.server");
const { statsPage } = await import("~/server/grades/analytics.server");
const roundTripsApi = await import("~/routes/_api+/api.portal.round_trips");
const roundTripsCsv = await import("~/routes/_api+/api.portal.round_trips[.]csv");
const tradesApi = await import("~/routes/_api+/api.portal.trades");
const tradesCsv = await import("~/routes/_api+/api.portal.trades[.]csv");
await (await import("../mocks")).startProviderMocks({ prices: true });
await migrateToLatest();

// Symbols a hostile source could send: each would run as a formula if a spreadsheet read it raw.
const HOSTILE = ['=HYPERLINK("http://evil.example","x")', "+SUM(1,2)", "-2+3", "@cmd"];

async function gradedUser(showAmounts = false) {
  const db = await getDb();
  const { id: userId } = await db
    .insertInto("users")
    .values({ email: `csv-${Date.now()}-${Math.random()}@example.com`, show_amounts: showAmounts })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await linkAccount({
    userId,
    kind: "plaid",
    fingerprint: `plaid:csv:${userId}`,
    label: "=cmd|' /C calc'!A0",
  });
  if (!link.ok) throw new Error("link failed");
  const t0 = Date.UTC(2025, 0, 2, 15);
  const symbols = ["AAPL", "MSFT", ...HOSTILE];
  await saveImport(link.id, {
    trades: Array.from({ length: 24 }, (_, i) => ({
      externalId: `t${i}`,
      time: new Date(t0 + i * 86_400_000 * 2 + (i % 2) * 3_600_000 * 5),
      symbol: symbols[Math.floor(i / 2) % symbols.length]!,
      assetClass: "stock" as const,
      side: i % 2 === 0 ? ("buy" as const) : ("sell" as const),
      quantity: 10,
      price: 100 + ((i * 7) % 11),
      fee: 1,
    })),
    cashFlows: [{ externalId: "d1", time: new Date(t0 - 86_400_000), amount: 10_000 }],
    marks: [],
    payloads: [],
  });
  const out = await evaluateUser(userId, "all", async () => {});
  expect(out.code).toBe(200);
  const { token } = await createSession(userId, new Request("http://localhost/"));
  return { userId, token };
}

const call = async (route: { loader: (args: never) => unknown }, path: string, token?: string) => {
  const request = new Request(`http://localhost${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  try {
    return (await route.loader({ request, params: {}, context: {} } as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
};

const TRIP_NUMBERS = ["n", "holding_days", "entry_notional", "pnl", "return"];
const TRADE_NUMBERS = ["quantity", "price", "fee"];

/** CSV text back to the API's values: the numeric columns as numbers, empty as null, the ' guard removed. */
function reparse(text: string, numeric: string[]) {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => {
        if (v === "") return [k, null];
        if (numeric.includes(k)) return [k, Number(v)];
        return [k, v.startsWith("'") && /^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v];
      }),
    ),
  );
}

describe("journal and CSV exports", () => {
  it("round_trips.csv re-parses to exactly the API's rows, with a header row and an attachment", async () => {
    const { token } = await gradedUser();
    const json = await call(
      roundTripsApi,
      "/api/portal/round_trips?page_size=100&sort_by=close_time&order=desc",
      token,
    );
    expect(json.status).toBe(200);
    const body = (await json.json()) as { data: Record<string, unknown>[]; meta: { total: number } };
    expect(body.meta.total).toBe(12);
    expect(body.data).toHaveLength(12);
    const csv = await call(roundTripsCsv, "/api/portal/round_trips.csv?sort_by=close_time&order=desc", token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="round_trips.csv"');
    const text = await csv.text();
    expect(text.split("\n")[0]).toBe(
      "n,account,symbol,asset_class,side,open_time,close_time,holding_days,entry_notional,pnl,return,outcome",
    );
    expect(reparse(text, TRIP_NUMBERS)).toEqual(body.data);
    // Filters apply to the CSV as to the API.
    const longs = await call(roundTripsCsv, "/api/portal/round_trips.csv?symbol=AAPL", token);
    expect(reparse(await longs.text(), TRIP_NUMBERS).map((r) => r.symbol)).toEqual(["AAPL", "AAPL"]);
  });

  it("the sum of the journal's P&L is the grade's: Σ trips = roundTrips, mean = expectancy", async () => {
    const { userId, token } = await gradedUser();
    const body = (await (await call(roundTripsApi, "/api/portal/round_trips?page_size=100", token)).json()) as {
      data: { pnl: number; outcome: string }[];
    };
    const m = (await currentEvaluation(userId))!.result.metrics;
    expect(body.data.length).toBe(m.roundTrips);
    expect(body.data.reduce((s, r) => s + r.pnl, 0) / m.roundTrips).toBeCloseTo(m.expectancy!, 9);
    expect(body.data.filter((r) => r.outcome === "win").length / m.roundTrips).toBeCloseTo(m.winRate!, 9);
  });

  it("trades.csv re-parses to the trades API's rows", async () => {
    const { token } = await gradedUser();
    const api = (await (await call(tradesApi, "/api/portal/trades?page_size=100", token)).json()) as {
      data: Record<string, unknown>[];
    };
    expect(api.data).toHaveLength(24);
    const csv = await call(tradesCsv, "/api/portal/trades.csv", token);
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="trades.csv"');
    const text = await csv.text();
    expect(text.split("\n")[0]).toBe("id,time,symbol,asset_class,side,quantity,price,fee,currency,account");
    const rows = reparse(text, TRADE_NUMBERS);
    expect(rows).toEqual(api.data);
  });

  it("prefixes text cells starting with =, +, - or @ so spreadsheets never run them; numbers stay numbers", async () => {
    const { token } = await gradedUser();
    const text = await (await call(tradesCsv, "/api/portal/trades.csv", token)).text();
    const cells = (parse(text, { columns: true }) as Record<string, string>[]).flatMap((r) => Object.values(r));
    for (const c of cells) expect(c, c).not.toMatch(/^[=+\-@]/);
    const symbols = new Set((parse(text, { columns: true }) as Record<string, string>[]).map((r) => r.symbol));
    for (const s of HOSTILE) expect(symbols).toContain(`'${s}`);
    expect(new Set((parse(text, { columns: true }) as Record<string, string>[]).map((r) => r.account))).toEqual(
      new Set(["'=cmd|' /C calc'!A0"]),
    );
    const trips = await (await call(roundTripsCsv, "/api/portal/round_trips.csv", token)).text();
    const tripSymbols = (parse(trips, { columns: true }) as Record<string, string>[]).map((r) => r.symbol);
    expect(tripSymbols).toContain("'-2+3");
    // A negative P&L is a number, not text: it keeps its minus sign.
    expect((parse(trips, { columns: true }) as Record<string, string>[]).some((r) => r.pnl.startsWith("-"))).toBe(true);
  });

  it("needs a session, and refuses a bad query with every problem", async () => {
    expect((await call(roundTripsCsv, "/api/portal/round_trips.csv")).status).toBe(401);
    expect((await call(tradesCsv, "/api/portal/trades.csv")).status).toBe(401);
    const { token } = await gradedUser();
    const bad = await call(roundTripsApi, "/api/portal/round_trips?sort_by=password&from=2025-13-01", token);
    expect(bad.status).toBe(400);
    const err = (await bad.json()) as { error: { fields: Record<string, string> } };
    expect(Object.keys(err.error.fields).sort()).toEqual(["from", "sort_by"]);
  });

  it("the Stats tab of another trader hides money when amounts are hidden, and shows it when shown", async () => {
    const hidden = await gradedUser(false);
    const shown = await gradedUser(true);
    const viewer = await gradedUser();
    const page = await statsPage(hidden.userId, viewer.userId, new URLSearchParams("sort_by=pnl"));
    expect(page.journal!.errors).toHaveProperty("sort_by");
    expect(page.journal!.rows.length).toBe(12);
    expect(page.journal!.rows.every((r) => r.pnl === null && r.entryNotional === null && r.account === "")).toBe(true);
    expect(page.analytics!.bySymbol.every((r) => r.pnl === null && r.expectancy === null)).toBe(true);
    expect(JSON.stringify(page)).not.toMatch(/"(pnl|expectancy|entryNotional|totalPnl|equity)":-?\d/);
    const open = await statsPage(shown.userId, viewer.userId, new URLSearchParams("sort_by=pnl&order=asc"));
    expect(open.journal!.errors).toEqual({});
    const pnls = open.journal!.rows.map((r) => r.pnl!);
    expect(pnls).toEqual([...pnls].sort((a, b) => a - b));
    expect(open.journal!.rows.every((r) => r.account === "")).toBe(true);
    // One's own page: everything, in one's own time zone.
    const db = await getDb();
    await db.updateTable("users").set({ time_zone: "America/New_York" }).where("id", "=", hidden.userId).execute();
    const own = await statsPage(hidden.userId, hidden.userId, new URLSearchParams());
    expect(own.analytics!.timeZone).toBe("America/New_York");
    expect(own.analytics!.byHour.find((r) => r.key === "10")!.trips).toBe(12); // 15:00 UTC = 10:00 EST
    expect(own.journal!.rows[0]!.pnl).not.toBeNull();
  });
});

import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { DEMO_IBKR } from "../mocks/ibkr";
import { baseUrl, get, postForm, signUp, type ImportRow } from "../support/http";

// Interactive Brokers through the real path: a Flex token and query id, the statement asked for and
// polled through 1019 (the simulator answers "generation in progress" twice per statement), the
// 406 rule, the import as jobs walking 365-day windows back, the mapping and the grade.

const RUN = Date.now().toString(36) + crypto.randomBytes(2).toString("hex");

async function link(body: Record<string, unknown>, cookie: string) {
  const res = await fetch(baseUrl() + "/api/ibkr/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ query_id: "987654", ...body }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, unknown>; error?: { message: string }; code?: number },
  };
}

async function importsOf(cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie })).json()) as { data: ImportRow[] }).data;
}

/** Waits for the imports to end, keeping every state seen on the way (the waits for 1019). */
async function watchImports(cookie: string, timeoutMs = 90_000) {
  const seen: ImportRow[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await importsOf(cookie);
    seen.push(...rows);
    if (rows.length && rows.every((r) => r.state === "done" || r.state === "failed")) return { rows, seen };
    if (Date.now() > deadline) throw new Error(`imports still running: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type LedgerJson = {
  trades: {
    id: string;
    symbol: string;
    side: string;
    quantity: number;
    price: number;
    fee?: number;
    currency?: string;
    assetClass: string;
  }[];
  events: { id: string; kind: string; symbol?: string; amount?: number; currency?: string; ratio?: number }[];
  cashFlows: { time: string; amount: number; currency?: string }[];
};

describe("linking Interactive Brokers with a Flex token", () => {
  it("links the demo account, walks its history back a year per window through 1019 and grades it", async () => {
    const { cookie } = await signUp();
    const token = `demo-${RUN}`;
    const res = await link({ token }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: "ibkr",
      label: expect.stringMatching(/^IBKR account …\d{4}$/),
      demo: true,
      status: "importing",
    });
    expect(JSON.stringify(res.body)).not.toContain(token);

    const { rows, seen } = await watchImports(cookie);
    expect(rows[0], JSON.stringify(rows[0])).toMatchObject({ state: "done", error: null });
    // Each window's statement was "still generating" before it came: the import waited, said why.
    expect(
      seen.some(
        (r) => r.state === "waiting_for_provider" && /still generating the statement.*\(1019\)/.test(r.error ?? ""),
      ),
    ).toBe(true);
    // Two windows (the latest year, then the one holding the day the account opened, 2025-01-02):
    // every row of the demo, which spans 23 months, once.
    // Trades (two of them currency exchanges); deposit and withdrawal; 4 cash events and the split;
    // the commission of the exchange back to dollars, a fee of its own.
    const expected = DEMO_IBKR.trades.length + 2 + 5 + 1;
    expect(rows[0]!.fetched).toBe(expected);
    expect(rows[0]!.skipped).toEqual([]);

    const ledgerRes = await get("/api/portal/ledger", { cookie });
    expect(ledgerRes.status).toBe(200);
    const ledger = ((await ledgerRes.json()) as { data: LedgerJson }).data;
    // The two EUR.USD fills are currency exchanges (DECISIONS 206), not trades: 20,000 EUR bought
    // at 1.04 for 20,800 USD (the 2 USD commission in the sold dollars), sold at 1.17 for 23,400
    // USD (the commission, in the bought dollars, a fee of its own).
    expect(ledger.trades).toHaveLength(DEMO_IBKR.trades.length - 2);
    const classes = new Set(ledger.trades.map((t) => t.assetClass));
    expect([...classes].sort()).toEqual(["future", "option", "stock"]);
    const exchanges = ledger.events.filter((e) => e.kind === "fx");
    expect(exchanges).toEqual([
      expect.objectContaining({
        time: "2025-02-03T09:30:00.000Z",
        sell: "USD",
        sellAmount: 20800,
        buy: "EUR",
        buyAmount: 20000,
        fee: 2,
      }),
      expect.objectContaining({
        time: "2025-10-01T09:30:00.000Z",
        sell: "EUR",
        sellAmount: 20000,
        buy: "USD",
        buyAmount: 23400,
      }),
    ]);
    expect(exchanges[1]).not.toHaveProperty("fee");
    expect(ledger.events).toContainEqual(
      expect.objectContaining({ time: "2025-10-01T09:30:00.000Z", kind: "fee", amount: 2 }),
    );
    // Trades from both windows: 2025's and 2026's.
    expect(ledger.trades.some((t) => t.symbol === "ESM6")).toBe(true);
    expect(ledger.trades.some((t) => t.symbol === "SAP" && t.currency === "EUR")).toBe(true);
    expect(ledger.cashFlows.map((f) => f.amount).sort((a, b) => a - b)).toEqual([-5000, 100000]);
    expect(ledger.events.find((e) => e.kind === "split")).toMatchObject({ symbol: "NVDA", ratio: 10 });

    // Realized P&L by hand (GRADING.md §5: a piece's P&L is (exit − entry) × q less its fees per unit):
    //   USD: AAPL (230 − 200) × 100 − 1 − 1 = 2,998; NVDA 10 @ 1,200 split 10 for 1 → 100 @ 120 (fee
    //   0.01/unit), sold @ 130: (130 − 120) × 100 − 0.01 × 100 − 0.01 × 100 = 998. Together 3,996.
    //   EUR: SAP (270 − 240) × 50 − 3 − 3 = 1,494.
    const stocks = (currency: string) => ({
      baseCurrency: currency,
      trades: ledger.trades.filter((t) => t.assetClass === "stock" && (t.currency ?? "USD") === currency),
      events: ledger.events.filter((e) => e.kind === "split"),
      cashFlows: [],
    });
    const usd = parseLedger(stocks("USD"));
    if (!usd.ok) throw new Error(usd.problems.join("; "));
    expect(grade(usd.ledger).metrics.realizedPnl).toBeCloseTo(3996, 6);
    const eur = parseLedger(stocks("EUR"));
    if (!eur.ok) throw new Error(eur.problems.join("; "));
    expect(grade(eur.ledger).metrics.realizedPnl).toBeCloseTo(1494, 6);

    // The account page names it, and the grade call grades it like the others.
    const page = await (await get("/profile/account", { cookie })).text();
    expect(page).toContain(res.body.data!.label as string);
    const evaluation = await fetch(baseUrl() + "/api/ibkr/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number } }).data;
    expect([200, 2002]).toContain(outcome.code);
  }, 150_000);

  it("gives one IBKR account to one Grader user: a second user gets 406", async () => {
    const token = `demo-406-${RUN}`;
    const first = await signUp();
    expect((await link({ token }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await link({ token, query_id: "1" }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    expect(await importsOf(second.cookie)).toEqual([]);
    await watchImports(first.cookie);
  }, 150_000);

  it("marks an account whose token expired as needing a new token, in words", async () => {
    const { cookie } = await signUp();
    expect((await link({ token: `sim-expires-${RUN}` }, cookie)).status).toBe(201);
    const { rows } = await watchImports(cookie);
    expect(rows[0]).toMatchObject({ state: "failed" });
    expect(rows[0]!.error).toBe("The Flex token has expired: make a new one in Flex Web Service Configuration. (1012)");
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new token. The Flex token has expired");
    expect(html).toContain("Needs a new token");
  }, 150_000);

  it.each([
    ["sim-ip-x", /restricted to other IP addresses.*\(1013\)$/],
    ["not-a-token", /The Flex token is invalid.*\(1015\)$/],
  ])("refuses the token %s with IBKR's reason in words and stores nothing", async (token, message) => {
    const { cookie } = await signUp();
    const res = await link({ token }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    expect(await importsOf(cookie)).toEqual([]);
  });

  it("answers bad input with a 400 naming the field", async () => {
    const { cookie } = await signUp();
    const res = await link({ token: "", query_id: "" }, cookie);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("Enter the Flex token.");
    const query = await link({ token: "demo", query_id: "12 34" }, cookie);
    expect(query.status).toBe(400);
    expect(JSON.stringify(query.body)).toContain("A Query ID is a number");
  });

  it("links through the page's plain form post, keeping what was typed on a refusal", async () => {
    const { cookie } = await signUp();
    const page = await (await get("/link/ibkr", { cookie })).text();
    expect(page).toContain("Activity Flex Query");
    expect(page).toContain("Flex Web Service Configuration");
    const refused = await postForm("/link/ibkr", { token: "sim-ip-form", query_id: "4242" }, { cookie });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("restricted to other IP addresses");
    expect(html).toContain('value="sim-ip-form"');
    expect(html).toContain('value="4242"');
    const demo = await (await get("/link/ibkr?demo=1", { cookie })).text();
    expect(demo).toContain('value="demo"');
    const linked = await postForm("/link/ibkr", { token: `demo-form-${RUN}`, query_id: "4242" }, { cookie });
    expect(linked.status).toBe(302);
    expect(linked.headers.get("location")).toBe("/profile/account#imports");
    await watchImports(cookie);
  }, 150_000);
});

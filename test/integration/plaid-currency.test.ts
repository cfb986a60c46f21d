import { expect, it } from "vitest";
import { baseUrl, get, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";

// Issue 32, points 3 and 4: the Plaid simulator's Canadian dollar account (user_good_cad…) is imported
// whole, every row with its currency, and graded with the rest in the trader's base currency (USD)
// at the ECB's rate of each row's day.

const RUN = Date.now().toString(36);

type Own = {
  ledger: {
    trades: { symbol: string; side: string; quantity: number; price: number; fee: number; currency: string }[];
    cash_flows: { amount: number; currency: string }[];
    events: { kind: string; symbol: string | null; data: { amount?: number }; currency: string }[];
  };
};

it("stores a CAD account's trades, deposit, dividend and fee in CAD, and grades them in dollars at the day's rates", async () => {
  const { cookie } = await signUp();
  await exchange(baseUrl(), cookie, `user_good_cad${RUN}`);
  const imports = await waitForImports(cookie, { timeoutMs: 120_000 });
  // The brokerage's USD account and its Canadian dollar one, each linked and imported.
  expect(imports.map((i) => i.state)).toEqual(["done", "done"]);
  for (const i of imports) expect(i.skipped.map((s) => s.reason)).not.toContain("non-USD");

  const res = await get("/user/settings/data.json", { cookie });
  expect(res.status).toBe(200);
  const own = (await res.json()) as Own;
  const cadTrades = own.ledger.trades.filter((t) => t.currency === "CAD");
  expect(cadTrades.map((t) => [t.symbol, t.side, t.quantity, t.price, t.fee])).toEqual([
    ["RY", "buy", 40, 165.2, 4.95],
    ["ENB", "buy", 100, 58.4, 4.95],
    ["RY", "sell", 20, 182.1, 4.95],
    ["TD", "buy", 60, 96.3, 4.95],
  ]);
  expect(own.ledger.cash_flows.filter((c) => c.currency === "CAD").map((c) => c.amount)).toEqual([20_000]);
  expect(own.ledger.events.filter((e) => e.currency === "CAD").map((e) => [e.kind, e.symbol, e.data.amount])).toEqual([
    ["income", "ENB", 94.25],
    ["fee", null, 9.95],
  ]);
  // Everything else is in US dollars, as before.
  expect(new Set(own.ledger.trades.map((t) => t.currency))).toEqual(new Set(["USD", "CAD"]));
  expect(own.ledger.trades.filter((t) => t.currency === "USD").length).toBeGreaterThan(100);

  // The automatic grade after the import takes the CAD rows too, at the ECB's rates of their days:
  // nothing is left out for its currency, and the grade says what the Canadian dollar did.
  const ledger = await get("/api/portal/ledger", { cookie });
  expect(ledger.status).toBe(200);
  const body = (await ledger.json()) as {
    data: { trades: { symbol: string; currency?: string }[] };
    meta: { dataQuality: { skipped: { reason: string; count: number }[] } };
  };
  expect(body.meta.dataQuality.skipped.map((s) => s.reason)).not.toContain("non-USD");
  expect(body.meta.dataQuality.skipped.map((s) => s.reason)).not.toContain("unknown currency");
  const graded = body.data.trades.filter((t) => ["RY", "ENB", "TD"].includes(t.symbol));
  expect(graded).toHaveLength(4);
  const stats = await (await get("/profile/stats", { cookie })).text();
  expect(stats).toMatch(/came from the currency: the Canadian dollar&#x27;s (fall|rise) against the dollar\./);

  // Each trade's price in its own currency, in a Currency column beside the dollar trades'. The
  // demo's dollar history varies, so the page that holds RY is looked for, not assumed.
  const query = "page_size=100&sort_by=symbol&order=asc";
  let page = 0;
  let ry: { currency: string } | undefined;
  while (!ry && page < 10) {
    page += 1;
    const api = (await (await get(`/api/portal/trades?${query}&page=${page}`, { cookie })).json()) as {
      data: { symbol: string; price: number; currency: string }[];
    };
    if (api.data.length === 0) break;
    ry = api.data.find((t) => t.symbol === "RY" && t.price === 165.2);
  }
  expect(ry?.currency).toBe("CAD");
  const history = await (await get(`/profile/history?${query}&page=${page}`, { cookie })).text();
  expect(history).toContain("CA$165.20");
  expect(history).toMatch(/<th[^>]*>Currency<\/th>/);
});

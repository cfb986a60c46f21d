import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_HISTORY_END } from "../mocks/plaid-data";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

async function api(path: string, cookie: string, body: unknown = {}) {
  const res = await fetch(baseUrl() + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, unknown>; error?: { message: string } },
  };
}

// Each demo username (user_good_<suffix>) is its own institution account, so tests never collide on the 406 rule.
const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function info(cookie: string) {
  return ((await (await get("/api/user/info", { cookie })).json()) as { data: Record<string, unknown> }).data;
}

describe("the evaluation flow over HTTP (demo broker)", () => {
  let trader: { cookie: string; id: number };
  beforeAll(async () => {
    const { cookie } = await signUp();
    const linked = await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() });
    expect(linked.status).toBeLessThan(300);
    // Linking answers before the import ends: an evaluation now answers 425 at once, using no try.
    const early = await api("/api/finance/plaid/evaluation", cookie);
    expect(early.body.data).toEqual({
      code: 425,
      message: "Your trades are still importing. Try again when the import is done.",
    });
    expect((await waitForImports(cookie)).map((i) => i.state)).toEqual(["done"]);
    trader = { cookie, id: (await info(cookie)).id as number };
  });

  it("answers code 403 without a linked account, as JSON with HTTP 200", async () => {
    const { cookie } = await signUp();
    for (const path of ["/api/finance/plaid/evaluation", "/api/evm/evaluation", "/api/solana/evaluation"]) {
      const res = await api(path, cookie);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        code: 403,
        message: "Link your Robinhood or Metamask account first, then give it another go.",
      });
    }
  });

  it("offers one way to connect per kind of account, the broker first and as a form that needs no JavaScript", async () => {
    const { cookie } = await signUp();
    const html = (await (await get("/evaluate", { cookie })).text()).replace(/<!-- -->/g, "");
    const options = html.slice(html.indexOf('class="connect-options"'));
    const broker = options.indexOf('<form method="post" action="/link/plaid"');
    expect(broker).toBeGreaterThan(-1);
    expect(options).toMatch(/Broker <span class="muted small">through Plaid<\/span>/);
    expect(options.indexOf('href="/link/evm"')).toBeGreaterThan(broker);
    expect(options.indexOf('href="/link/solana"')).toBeGreaterThan(options.indexOf('href="/link/evm"'));
    expect(options).toContain("MetaMask Wallet");
    expect(options).toContain("Phantom Wallet");
  });

  it("the import's automatic grade is there, using no try; an evaluation then answers 2002 when nothing is new", async () => {
    expect((await info(trader.cookie)).is_star).toBe(true);
    expect((await (await get("/evaluate", { cookie: trader.cookie })).text()).replace(/<!-- -->/g, "")).toContain(
      "you have 3 left",
    );
    const first = await api("/api/finance/plaid/evaluation", trader.cookie);
    expect(first.body.data?.code).toBe(2002);
    expect(["Bronze", "Silver", "Gold", "Master", "Legend"]).toContain(first.body.data?.tier);
    expect(first.body.data?.verification_code).toMatch(/^GR-/);
    const second = await api("/api/finance/plaid/evaluation", trader.cookie);
    expect(second.body.data?.code).toBe(2002);
    expect(second.body.data?.evaluation_id).toBe(first.body.data?.evaluation_id);
    const user = await info(trader.cookie);
    expect(user.is_star).toBe(true);
    expect(user.platform_name).toBe("plaid");
  });

  it("shows the grade in the header, the stats page and the profile", async () => {
    const stats = await (await get("/profile/stats", { cookie: trader.cookie })).text();
    for (const text of [
      "Dimensions",
      "Key figures",
      "Time-weighted return",
      "Money-weighted return",
      "Max drawdown",
      "Win rate",
      "Profit factor",
      "Grade history",
      "Flow-adjusted account index",
      "Drawdown from the running peak",
    ]) {
      expect(stats).toContain(text);
    }
    expect(stats).toMatch(/<svg class="chart"[^>]*role="img"/);
    const header = await (await get("/community", { cookie: trader.cookie })).text();
    expect(header).toContain("Refresh Grade");
    expect(header).toContain("My Current Grade");
    const profile = await (await get("/profile", { cookie: trader.cookie })).text();
    expect(profile).toMatch(/class="grade-badge tier-(Bronze|Silver|Gold|Master|Legend)/);
  });

  it("values what is held at the market's closes up to the last final day, not at the last import's prices", async () => {
    const data = (await (
      await get(`/u/${trader.id}/stats?_data=${encodeURIComponent("routes/u.$id.stats")}`, { cookie: trader.cookie })
    ).json()) as {
      report: {
        evaluation: {
          curve: { date: string; equity: number }[];
          metrics: { positionsAtCost?: number };
          warnings: string[];
        };
        dataQuality: { unpriced?: string[] } | null;
      };
    };
    const curve = data.report.evaluation.curve;
    const lastFinal = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(curve.at(-1)!.date >= lastFinal).toBe(true);
    // The demo broker's history and holdings end on DEMO_HISTORY_END; the positions move after it.
    const after = curve.filter((c) => c.date > DEMO_HISTORY_END);
    expect(after.length).toBeGreaterThan(20);
    expect(new Set(after.map((c) => c.equity.toFixed(2))).size).toBeGreaterThan(after.length / 2);
    // Its stocks trade at the price source's closes: each one is valued daily. The option and the
    // fund without a ticker have no daily price, and the grade says so.
    const unpriced = data.report.dataQuality?.unpriced ?? [];
    expect(unpriced).toContain("AAPL261218C00250000");
    for (const symbol of ["AAPL", "MSFT", "NFLX", "HON", "SOLS", "SPY"]) expect(unpriced).not.toContain(symbol);
    // The broker's holdings prices and Yahoo's closes say who quoted them, with confidence 1: every
    // one may raise a value, so no position is held at cost (DECISIONS 208).
    expect(data.report.evaluation.metrics.positionsAtCost).toBeUndefined();
    expect(data.report.evaluation.warnings.join("\n")).not.toMatch(/valued at cost/);
  });

  it("summarises grade, linked accounts and next steps on /portal/dashboard", async () => {
    const html = await (await get("/portal/dashboard", { cookie: trader.cookie })).text();
    expect(html).toMatch(/class="grade-badge tier-(Bronze|Silver|Gold|Master|Legend)/);
    expect(html).toContain("Platypus Brokerage");
    expect(html).toContain("✓ Get your grade");
    expect(html).not.toContain("✓ Share your card");
    // Sharing from the share modal records it (the airdrop task), and the step is done.
    const shared = await fetch(baseUrl() + "/api/airdrop/share", {
      method: "POST",
      headers: { cookie: trader.cookie, origin: baseUrl() },
    });
    expect(shared.status).toBeLessThan(300);
    expect(await (await get("/portal/dashboard", { cookie: trader.cookie })).text()).toContain("✓ Share your card");
    const fresh = await signUp();
    const empty = await (await get("/portal/dashboard", { cookie: fresh.cookie })).text();
    expect(empty).toContain("No grade yet.");
    expect(empty).toContain("None linked yet.");
  });

  it("lists holdings and trades with paging and refuses unknown sort fields", async () => {
    const trades = (await (
      await get("/api/portal/trades?page=2&page_size=10&sort_by=symbol&order=asc", { cookie: trader.cookie })
    ).json()) as {
      data: { symbol: string; quantity: number }[];
      meta: { page: number; page_size: number; total: number };
    };
    expect(trades.meta).toMatchObject({ page: 2, page_size: 10 });
    expect(trades.meta.total).toBeGreaterThanOrEqual(150);
    expect(trades.data).toHaveLength(10);
    expect(trades.data.map((t) => t.symbol)).toEqual([...trades.data.map((t) => t.symbol)].sort());
    expect(typeof trades.data[0]!.quantity).toBe("number");
    const bad = await get("/api/portal/trades?sort_by=password", { cookie: trader.cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("sort_by");
    const page = await (await get("/profile/history?page_size=5", { cookie: trader.cookie })).text();
    expect(page).toContain("Page 1 of");
    const holdings = (await (await get("/api/portal/holdings", { cookie: trader.cookie })).json()) as {
      data: { weight: number }[];
      meta: { total: number };
    };
    expect(holdings.meta.total).toBeGreaterThan(0);
    const total = holdings.data.reduce((s, h) => s + h.weight, 0);
    expect(total).toBeGreaterThan(0);
  });

  it("hides another trader's dollar amounts by default, everywhere", async () => {
    const viewer = await signUp();
    const statsData = (await (
      await get(`/u/${trader.id}/stats?_data=${encodeURIComponent("routes/u.$id.stats")}`, { cookie: viewer.cookie })
    ).json()) as {
      report: { evaluation: { metrics: Record<string, unknown>; positions: unknown[]; curve: { equity: unknown }[] } };
    };
    expect(statsData.report.evaluation.metrics.totalPnl).toBeNull();
    expect(statsData.report.evaluation.metrics.equity).toBeNull();
    expect(statsData.report.evaluation.positions).toEqual([]);
    expect(statsData.report.evaluation.curve.every((c) => c.equity === null)).toBe(true);
    const trades = (await (await get(`/api/portal/trades?user_id=${trader.id}`, { cookie: viewer.cookie })).json()) as {
      data: { quantity: unknown; fee: unknown; account: string }[];
    };
    expect(trades.data.every((t) => t.quantity === null && t.fee === null)).toBe(true);
    // Nor can the order give the hidden sizes away: sorting by them is refused, naming the field.
    for (const order of ["asc", "desc"]) {
      const sorted = await get(`/api/portal/trades?user_id=${trader.id}&sort_by=quantity&order=${order}`, {
        cookie: viewer.cookie,
      });
      expect(sorted.status).toBe(400);
      expect(((await sorted.json()) as { error: { message: string } }).error.message).toMatch(
        /^sort_by: quantity is hidden/,
      );
      expect(
        (await get(`/u/${trader.id}/transactions?sort_by=quantity&order=${order}`, { cookie: viewer.cookie })).status,
      ).toBe(400);
    }
    expect((await get(`/api/portal/trades?sort_by=quantity`, { cookie: trader.cookie })).status).toBe(200);
    // The account's name and last digits are the owner's alone.
    expect(new Set(trades.data.map((t) => t.account))).toEqual(new Set(["Broker account"]));
    const own = (await (await get("/api/portal/trades", { cookie: trader.cookie })).json()) as {
      data: { account: string }[];
    };
    expect(own.data[0]!.account).toMatch(/••\d{4}/);
    expect(await (await get(`/u/${trader.id}/transactions`, { cookie: viewer.cookie })).text()).not.toContain("••");
    const holdings = (await (
      await get(`/api/portal/holdings?user_id=${trader.id}`, { cookie: viewer.cookie })
    ).json()) as { data: { value: unknown }[] };
    expect(holdings.data.every((h) => h.value === null)).toBe(true);
    // Once the trader chooses to show amounts, they appear.
    const me = await info(trader.cookie);
    await postForm(
      "/user/settings",
      { username: (me.username as string) ?? `t_${Date.now().toString(36)}`, show_amounts: "amounts" },
      { cookie: trader.cookie },
    );
    const shown = (await (await get(`/api/portal/trades?user_id=${trader.id}`, { cookie: viewer.cookie })).json()) as {
      data: { quantity: unknown }[];
    };
    expect(typeof shown.data[0]!.quantity).toBe("number");
    expect(
      (await get(`/api/portal/trades?user_id=${trader.id}&sort_by=quantity`, { cookie: viewer.cookie })).status,
    ).toBe(200);
  });

  it("works as a plain form without JavaScript: success goes to the stats, a failure shows the Tips", async () => {
    const { cookie } = await signUp();
    const none = await postForm("/evaluate", {}, { cookie });
    expect(none.status).toBe(200);
    const html = await none.text();
    expect(html).toContain("Tips");
    expect(html).toContain("Link Now");
    // The Get Grade button's fetcher asks for the outcome itself.
    const outcome = await postForm("/evaluate?_data=routes%2Fevaluate", { answer: "outcome" }, { cookie });
    expect(outcome.status).toBe(200);
    expect(((await outcome.json()) as { code: number }).code).toBe(403);
    await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() });
    // During the import: the Tips with code 425's message, no try used.
    const early = await postForm("/evaluate", {}, { cookie });
    expect(early.status).toBe(200);
    expect(await early.text()).toContain("Your trades are still importing. Try again when the import is done.");
    await waitForImports(cookie);
    // The import's automatic grade is there: asking again runs as a job, answered at once with its
    // status page, which refreshes itself until the job is done and then goes on to the stats.
    const same = await postForm("/evaluate", {}, { cookie });
    expect(same.status).toBe(302);
    const runPath = same.headers.get("location")!;
    expect(runPath).toMatch(/^\/evaluate\/runs\/\d+$/);
    // Someone else's run is not found; a second request while this one is open is refused (409).
    expect((await get(runPath, { cookie: (await signUp()).cookie })).status).toBe(404);
    const twice = await postForm("/evaluate?_data=routes%2Fevaluate", { answer: "outcome" }, { cookie });
    const second = (await twice.json()) as { code?: number; run?: number };
    expect(second).toEqual({
      code: 409,
      message: "Your evaluation is already running. It takes a few seconds; please wait for it to finish.",
    });
    let followed: Response | null = null;
    for (let i = 0; i < 100 && !followed; i++) {
      const page = await get(runPath, { cookie });
      if (page.status === 302) followed = page;
      else {
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toMatch(/Waiting for its turn|Evaluating your trades/);
        expect(html).toMatch(/<meta http-equiv="refresh" content="2"/);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(followed?.headers.get("location")).toBe("/profile/stats?evaluated=same");
    const stated = await (await get("/profile/stats?evaluated=same", { cookie })).text();
    expect(stated).toContain("Nothing new since your last grade: it stands, and no try was used.");
    expect(stated).not.toContain("Evaluated successfully!");
    expect(await (await get("/profile/stats?evaluated=new", { cookie })).text()).toContain(
      "Evaluated successfully! Your new grade used one try.",
    );
  });
});

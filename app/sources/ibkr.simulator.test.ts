import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_IBKR, DEMO_IBKR_OPENED, PENDING_POLLS } from "../../test/mocks/ibkr";
import { FlexError, flexWindow, getStatement, sendRequest } from "./ibkr.server";
import { parseFlexStatement } from "./ibkr/flex";
import { DEMO_IBKR_FLEX_URL } from "./wallet-demo";

// The Flex Web Service simulator (test/mocks/ibkr.ts) through the real adapter: the two calls,
// 1019 until the statement is generated, the errors by token.
const server = setupServer(...(await import("../../test/mocks/ibkr")).ibkrHandlers());
const userAgents: (string | null)[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("request:start", ({ request }) => void userAgents.push(request.headers.get("user-agent")));
});
afterAll(() => server.close());
const settings = { baseUrl: DEMO_IBKR_FLEX_URL, timeoutMs: 5000 };

async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (error) {
    if (error instanceof FlexError) return error.code;
    throw error;
  }
  throw new Error("no FlexError");
}

describe("the Flex Web Service", () => {
  it("answers 1019 while generating, then the window's statement, with a User-Agent on every call", async () => {
    const credentials = { token: "demo", queryId: "123456" };
    const window = { from: "2025-01-01", to: "2025-12-31" };
    const ref = await sendRequest(credentials, settings, window);
    expect(ref.code).toMatch(/^\d{10}$/);
    expect(ref.url).toBe(`${DEMO_IBKR_FLEX_URL}/GetStatement`);
    for (let i = 0; i < PENDING_POLLS; i++) expect(await codeOf(getStatement(credentials, ref, settings))).toBe(1019);
    const statement = parseFlexStatement(await getStatement(credentials, ref, settings));
    if (!statement.ok) throw new Error(statement.problems.join("; "));
    expect(statement).toMatchObject({
      accountId: "U9900001",
      fromDate: "2025-01-01",
      toDate: "2025-12-31",
      dateOpened: DEMO_IBKR_OPENED,
    });
    // The year's fills; its two EUR.USD fills are currency exchanges, not trades (DECISIONS 206).
    const fills = DEMO_IBKR.trades.filter((t) => t.date <= "2025-12-31");
    const cash = fills.filter((t) => t.row.assetCategory === "CASH");
    expect(cash).toHaveLength(2);
    expect(statement.trades).toHaveLength(fills.length - cash.length);
    expect(statement.events.filter((e) => e.kind === "fx")).toHaveLength(cash.length);
    expect(statement.trades.find((t) => t.symbol === "ESH6")).toMatchObject({ multiplier: 50, expiry: "2026-03-20" });
    expect(userAgents.every((ua) => ua !== null && /^Node\.js\/\d+\.\d+ Grader\/1\.0$/.test(ua))).toBe(true);
  });

  it("refuses more than 365 days, a query id that is not one, an unknown token and an unknown reference", async () => {
    const demo = { token: "demo", queryId: "1" };
    expect(await codeOf(sendRequest(demo, settings, { from: "2024-01-01", to: "2025-06-01" }))).toBe(1020);
    expect(await codeOf(sendRequest({ token: "demo", queryId: "abc" }, settings))).toBe(1014);
    expect(await codeOf(sendRequest({ token: "who", queryId: "1" }, settings))).toBe(1015);
    expect(await codeOf(sendRequest({ token: "sim-ip-a", queryId: "1" }, settings))).toBe(1013);
    expect(await codeOf(getStatement(demo, { code: "42", url: `${DEMO_IBKR_FLEX_URL}/GetStatement` }, settings))).toBe(
      1017,
    );
  });

  it("serves an expiring token once, then 1012; a busy one 1018 once", async () => {
    // Tokens of this run: the simulator remembers tokens across processes and runs, as IBKR would.
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    for (const [token, code] of [
      [`sim-expires-${run}`, 1012],
      [`sim-busy-${run}`, 1018],
    ] as const) {
      const credentials = { token, queryId: "7" };
      const ref = await sendRequest(credentials, settings);
      for (let i = 0; i <= PENDING_POLLS; i++) await getStatement(credentials, ref, settings).catch(() => null);
      expect(await codeOf(sendRequest(credentials, settings))).toBe(code);
    }
    // The busy token's next request goes through.
    expect((await sendRequest({ token: `sim-busy-${run}`, queryId: "7" }, settings)).code).toMatch(/^\d+$/);
  });

  it("follows a GetStatement Url only on the service's host or IBKR's", async () => {
    // The simulator names its own; an answer naming another host would be replaced by ours.
    const ref = await sendRequest({ token: "demo", queryId: "5" }, settings);
    expect(new URL(ref.url).host).toBe(new URL(DEMO_IBKR_FLEX_URL).host);
  });
});

describe("windows", () => {
  it("counts windows back from today without overlap", () => {
    expect(flexWindow("2026-12-03", 0)).toEqual({ from: "2025-12-04", to: "2026-12-03" });
    expect(flexWindow("2026-12-03", 1)).toEqual({ from: "2024-12-04", to: "2025-12-03" });
  });
});

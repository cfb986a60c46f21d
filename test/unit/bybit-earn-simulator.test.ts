import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bybit } from "../../app/sources/exchanges/bybit.server";
import { DEMO_BYBIT_URL } from "../../app/sources/wallet-demo";
import { bybitHandlers, demoBybit } from "../mocks/bybit";

// Bybit's converts and Earn yields through ccxt on its real code path (signed), against the
// simulator: what a key without Earn's permission gets, and the demo's convert and yield.

const server = setupServer(...bybitHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
process.env.SIM_DELAY_FACTOR = "0";

const DAY = 86_400_000;
const client = (apiKey: string) =>
  bybit.client({ apiKey, secret: "s3cr3t" }, { baseUrl: DEMO_BYBIT_URL, timeoutMs: 5_000 });

describe("Bybit's converts and Earn yields in the simulator", () => {
  it("reads the demo's convert and its yield week, and says once that a key may not read Earn", async () => {
    const d = demoBybit();
    const converts = await bybit.fetchPage(client("demo-read-only"), { stream: "converts" });
    expect(converts.rows).toMatchObject([{ fromCoin: "ETH", toCoin: "USDT", fromAmount: "0.1", toAmount: "310" }]);
    expect(converts.next).toBeNull();

    const week = { stream: "earn", start: d.earnYield.time - DAY, end: d.earnYield.time + 30 * DAY };
    const first = await bybit.fetchPage(client("demo-read-only"), week);
    // Newest first: the next day's record still pending, then the one paid.
    expect(first.rows).toMatchObject([{ status: "Pending" }, { coin: "ETH", amount: "0.002", status: "Success" }]);
    expect(first.next).toMatchObject({ stream: "earn", start: d.earnYield.time - DAY + 7 * DAY });

    const denied = await bybit.fetchPage(client("sim-no-earn-unit"), week);
    expect(denied).toEqual({ rows: [{ refused: "this key may not read Earn" }], next: null });
  });
});

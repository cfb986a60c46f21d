import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { get, signUp, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { ownDatabase, startServer, type RunningServer } from "../support/server";
import { proxiedDatabase, type TcpProxy } from "../support/tcp-proxy";

// PostgreSQL goes away while an import runs: every connection of the server is reset at once (a
// failover, a network cut). The process must live through it, answer again once the database is
// back, and finish the import. A TCP proxy between the server and PostgreSQL does the cutting
// (test/support/tcp-proxy.ts), so this needs DATABASE_URL: PGlite runs inside the process, with no
// connection to lose. test/fault/db-cut.test.ts cuts it under mail and scheduled work.

let server: RunningServer | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  if (server?.process.exitCode === null) await server.stop();
  proxy?.cut();
  await proxy?.close();
});

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL connections lost in the middle of an import", () => {
  it("the process lives on, answers /healthz again and the import finishes", async () => {
    const proxied = await proxiedDatabase((await ownDatabase()).DATABASE_URL!);
    proxy = proxied.proxy;
    server = await startServer({
      DATABASE_URL: proxied.url,
      // An import over many short jobs (small pages, a slowed simulator), retried often enough to
      // outlast the cut; a job whose completion was lost is taken back after 3 s.
      SIM_DELAY_FACTOR: "5",
      SIM_PLAID_PAGE_SIZE: "40",
      JOB_EXPIRE_SECONDS: "3",
      JOB_RETRY_LIMIT: "6",
      ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
      LOG_REQUESTS: "0",
    });
    const base = server.url;
    const { cookie } = await signUp({ base });
    const username = `user_good_${Date.now().toString(36)}`;
    const res = await fetch(base + "/api/finance/plaid/exchange-public-token", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ public_token: `public-sandbox-${username}-${crypto.randomBytes(4).toString("hex")}` }),
    });
    expect(res.status).toBe(201);

    // Mid-import: some pages stored, not all.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = (
        (await (await get("/api/portal/imports", { base, cookie })).json()) as {
          data: { state: string; fetched: number; total: number | null }[];
        }
      ).data;
      if (row && row.state === "fetching" && row.fetched > 0 && row.total && row.fetched < row.total) break;
      if (Date.now() > deadline || row?.state === "done")
        throw new Error(`never caught mid-import: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    // Down for two seconds, jobs and requests running into it; a request meanwhile is a 503.
    proxy.cut();
    await new Promise((r) => setTimeout(r, 1_000));
    const alive = () => {
      const s = server!;
      if (s.process.exitCode !== null || s.process.signalCode !== null)
        throw new Error(
          `the server died (${s.process.exitCode ?? s.process.signalCode}):\n${s.logs.slice(-30).join("\n")}`,
        );
    };
    alive();
    expect((await get("/healthz", { base })).status).toBe(503);
    await new Promise((r) => setTimeout(r, 1_000));
    alive();
    proxy.restore();

    const healthy = Date.now() + 20_000;
    while ((alive(), await get("/healthz", { base })).status !== 200) {
      if (Date.now() > healthy) throw new Error(`/healthz never 200 again:\n${server.logs.slice(-40).join("\n")}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const [done] = await waitForImports(cookie, { base, timeoutMs: 90_000 });
    const expected = expectedDemoLedger(username);
    expect(done).toMatchObject({ state: "done", error: null, total: expected.transactions });
    // Alive all along, and the lost connections were reported, not thrown.
    expect(server.process.exitCode).toBeNull();
    expect(server.process.signalCode).toBeNull();
    expect(server.logs.join("\n")).not.toMatch(/unhandled|triggerUncaughtException/i);
  }, 180_000);
});

import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startPgBouncer, stopDaemons } from "../support/daemons";
import { get, postForm, signUp, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { exchange, tradesOf } from "../support/plaid-link";
import { scenario, start } from "./servers";

// A server whose DATABASE_URL goes through PgBouncer in transaction mode, as a managed pooler
// would put it, and whose DATABASE_DIRECT_URL is PostgreSQL itself (docs/DECISIONS.md 169).
// PgBouncer refuses start-up parameters it does not know ("unsupported startup parameter") and
// keeps no session between transactions: the server must start (migrations, job queues), serve,
// run jobs, and its statement timeout must still hold through the pooler. Several processes on
// one PostgreSQL need DATABASE_URL: PGlite has no pooler.

const RUN = Date.now().toString(36);
const TIMEOUT_MS = 3_000;
afterAll(stopDaemons);

describe.skipIf(!process.env.DATABASE_URL)("a server behind PgBouncer in transaction mode", () => {
  it("starts, signs up and in, runs an import's jobs, and its statement timeout holds", async () => {
    const env = await scenario({ DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
    const direct = new URL(env.DATABASE_URL!);
    const bouncer = await startPgBouncer(direct);
    // Migrations, the start-up lock and the job queue's set-up go direct; the rest through PgBouncer.
    const server = await start({ ...env, DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: direct.toString() });

    const { cookie, email, password } = await signUp({ base: server.url });
    const signIn = await postForm("/signin", { email, password }, { base: server.url });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.getSetCookie().some((c) => c.startsWith("grader_session="))).toBe(true);

    // An import is a chain of jobs (pg-boss through the pooler, COPY in their transactions).
    const username = `user_good_${RUN}b`;
    const linked = await exchange(server.url, cookie, username);
    const [done] = await waitForImports(cookie, { base: server.url, timeoutMs: 45_000 });
    const expected = expectedDemoLedger(username);
    expect(done).toMatchObject({ id: linked.import_id, state: "done", error: null, total: expected.transactions });
    expect(await tradesOf(server.url, cookie)).toBe(expected.trades);

    // A session through PgBouncer, as the server's pool opens them (no start-up parameters): the
    // role's defaults hold, and a statement past the timeout is cancelled.
    const client = new pg.Client({ connectionString: bouncer.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select name, setting from pg_settings where name in ('statement_timeout', 'jit') order by name",
      );
      expect(rows).toEqual([
        { name: "jit", setting: "off" },
        { name: "statement_timeout", setting: String(TIMEOUT_MS) },
      ]);
      const started = Date.now();
      const error = await client.query("select pg_sleep(20)").then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
      expect(error?.code).toBe("57014");
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5_000);
    } finally {
      await client.end();
    }

    expect(await server.stop()).toBe(0);
    const everything = [...server.logs, ...bouncer.logs].join("\n");
    expect(everything).not.toMatch(/unsupported startup parameter/i);
    // The server's connections did go through PgBouncer.
    expect(bouncer.logs.join("")).toMatch(/login attempt: db=\S+ user=/);
  }, 120_000);

  // DATABASE_READ_URL through the same PgBouncer, to the same database, on two server connections
  // the primary's pool shares (docs/DECISIONS.md 172): the read-only mode is per transaction, so it
  // never stays on a server connection that a write gets next.
  it("carries a read-only DATABASE_READ_URL beside the primary's writes", async () => {
    const env = await scenario();
    const direct = new URL(env.DATABASE_URL!);
    const bouncer = await startPgBouncer(direct, 2);
    const read = new URL(bouncer.url);
    read.searchParams.set("application_name", "grader_read");
    const server = await start({
      ...env,
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: direct.toString(),
      DATABASE_READ_URL: read.toString(),
    });
    const { cookie } = await signUp({ base: server.url });
    for (let i = 0; i < 10; i++) {
      const [signedUp, search, board] = await Promise.all([
        signUp({ base: server.url }),
        get("/api/portal/search/trader?keyword=nobody", { base: server.url, cookie }),
        get("/api/portal/market/traders", { base: server.url, cookie }),
      ]);
      expect(signedUp.cookie).toMatch(/^grader_session=/);
      expect([search.status, board.status]).toEqual([200, 200]);
    }
    // A session through PgBouncer after them: read-write, with the role's timeout.
    const client = new pg.Client({ connectionString: bouncer.url });
    await client.connect();
    try {
      const { rows } = await client.query("select current_setting('transaction_read_only') as ro");
      expect(rows).toEqual([{ ro: "off" }]);
    } finally {
      await client.end();
    }
    expect(await server.stop()).toBe(0);
    expect(server.logs.join("\n")).not.toMatch(/read-only transaction|25006/);
  }, 120_000);
});

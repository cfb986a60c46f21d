import type { Generated, Kysely } from "kysely";
import pg from "pg";
import { ENGINE_VERSION } from "~/grading/version";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// DATABASE_READ_URL (docs/DECISIONS.md 172): the heavy public reads go to a read-only copy, the
// rest and every write to the primary. Here the "replica" is a second database whose contents
// differ from the primary's on purpose, so each answer tells which database it came from. Two
// databases need PostgreSQL: PGlite is one (there getReadDb is getDb, which every other test runs).

const RUN = Date.now().toString(36);
// Two unrelated names (letters only: search also finds names with words similar to the keyword's).
const letters = () =>
  Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
const PRIMARY_NAME = letters();
const REPLICA_NAME = letters();
const started: RunningServer[] = [];
const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => (s.process.exitCode === null ? s.stop() : null)));
  await Promise.all(clients.map((c) => c.end()));
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

/** Gives the trader a current grade of `score` in one database (written as the engine's row would be). */
async function grade(db: pg.Client, userId: number, score: number): Promise<void> {
  const { rows } = await db.query<{ id: number }>(
    `insert into evaluations (user_id, engine_version, ledger_digest, tier, score, verification_code, result)
     values ($1, $4, 'digest', 'A', $2, $3, '{"stars": {"overall": 1}}') returning id`,
    [userId, score, `RU${RUN}${score}`.toUpperCase(), ENGINE_VERSION],
  );
  await db.query("update users set current_evaluation_id = $1 where id = $2", [rows[0]!.id, userId]);
}

const data = (route: string) => `_data=${encodeURIComponent(route)}`;

describe.skipIf(!process.env.DATABASE_URL)("DATABASE_READ_URL pointing at another database", () => {
  let server: RunningServer;
  let primary: pg.Client;
  let replica: pg.Client;
  let env: Record<string, string>;
  const viewer = { id: 0, cookie: "" };
  const trader = { id: 0, cookie: "" };

  beforeAll(async () => {
    const primaryUrl = (await ownDatabase()).DATABASE_URL!;
    // The primary migrated and its two users signed up by a server without a read URL.
    const first = await startServer({ DATABASE_URL: primaryUrl, LOG_REQUESTS: "0" });
    const setup = new pg.Client({ connectionString: primaryUrl });
    await setup.connect();
    for (const who of [viewer, trader]) {
      const user = await signUp({ base: first.url });
      who.cookie = user.cookie;
      const { rows } = await setup.query<{ id: number }>("select id from users where email = $1", [user.email]);
      who.id = rows[0]!.id;
    }
    // Unset, search reads the primary as before.
    await setup.query("update users set username = $1 where id = $2", [PRIMARY_NAME, trader.id]);
    const before = await get(`/api/portal/search/trader?keyword=${PRIMARY_NAME}`, {
      base: first.url,
      cookie: viewer.cookie,
    });
    expect(((await before.json()) as { data: { id: number }[] }).data.map((r) => r.id)).toEqual([trader.id]);
    await setup.end();
    expect(await first.stop()).toBe(0);

    // The "replica": a copy of the primary (same users, same sessions; a copy needs it unused)
    // that then drifts apart.
    const readUrl = new URL(primaryUrl);
    readUrl.pathname = `${readUrl.pathname}_r`;
    const admin = await connect(process.env.DATABASE_URL!);
    await admin.query(`create database ${readUrl.pathname.slice(1)} template ${new URL(primaryUrl).pathname.slice(1)}`);
    primary = await connect(primaryUrl);
    replica = await connect(readUrl.toString());
    await replica.query("update users set username = $1 where id = $2", [REPLICA_NAME, trader.id]);
    await replica.query("update grade_log_head set seq = 42 where id = 1");
    await grade(replica, trader.id, 77);
    await grade(primary, trader.id, 11);

    env = { DATABASE_URL: primaryUrl, DATABASE_READ_URL: readUrl.toString(), LOG_REQUESTS: "0" };
    server = await startServer(env);
    started.push(server);
  });

  it("serves search, the leaderboard and the grade log from the read database", async () => {
    const search = async (keyword: string) =>
      (
        (await (
          await get(`/api/portal/search/trader?keyword=${keyword}`, { base: server.url, cookie: viewer.cookie })
        ).json()) as { data: { id: number }[] }
      ).data.map((r) => r.id);
    expect(await search(REPLICA_NAME)).toEqual([trader.id]);
    expect(await search(PRIMARY_NAME)).toEqual([]);

    const board = (await (
      await get("/api/portal/market/traders", { base: server.url, cookie: viewer.cookie })
    ).json()) as { data: { id: number; score: number }[] };
    expect(board.data.find((r) => r.id === trader.id)?.score).toBe(77);

    const log = (await (await get("/api/grades/log", { base: server.url })).json()) as {
      meta: { head: { seq: number } };
    };
    expect(log.meta.head.seq).toBe(42);
  });

  it("shows another's profile from the read database and one's own from the primary", async () => {
    const profile = async (cookie: string) =>
      (await (await get(`/u/${trader.id}?${data("routes/u.$id")}`, { base: server.url, cookie })).json()) as {
        grade: { score: number } | null;
        counts: { followers: number };
      };
    const history = async (cookie: string) =>
      (
        (await (
          await get(`/u/${trader.id}/history?${data("routes/u.$id.history")}`, { base: server.url, cookie })
        ).json()) as { history: { score: number }[] }
      ).history.map((h) => h.score);
    expect((await profile(viewer.cookie)).grade?.score).toBe(77);
    expect(await history(viewer.cookie)).toEqual([77]);
    // Read-your-writes: the trader's own pages read the primary.
    expect((await profile(trader.cookie)).grade?.score).toBe(11);
    expect(await history(trader.cookie)).toEqual([11]);
  });

  it("writes to the primary, and the page after the write reads it there", async () => {
    const res = await postForm(
      `/u/${trader.id}`,
      { intent: "follow", redirect_to: `/u/${trader.id}` },
      { base: server.url, cookie: viewer.cookie },
    );
    expect(res.status).toBe(303);
    const count = async (db: pg.Client) =>
      (await db.query<{ n: number }>("select followers_count as n from users where id = $1", [trader.id])).rows[0]!.n;
    expect(await count(primary)).toBe(1);
    expect(await count(replica)).toBe(0);
    const after = (await (
      await get(`/u/${trader.id}?${data("routes/u.$id")}`, { base: server.url, cookie: viewer.cookie })
    ).json()) as { counts: { followers: number }; following: boolean };
    expect(after).toMatchObject({ counts: { followers: 1 }, following: true });
  });
});

// In-process: the read instance refuses every write, whatever form it takes, and holds the
// primary's statement settings without the replica's role defaults.
describe.skipIf(!process.env.DATABASE_URL)("the read database's own instance", () => {
  let db: typeof import("~/server/platform/db.server");

  beforeAll(async () => {
    const primaryUrl = (await ownDatabase()).DATABASE_URL!;
    const readUrl = (await ownDatabase()).DATABASE_URL!;
    process.env.DATABASE_URL = primaryUrl;
    process.env.DATABASE_READ_URL = readUrl;
    process.env.DATABASE_STATEMENT_TIMEOUT_MS = "4321";
    process.env.DATABASE_READ_POOL_SIZE = "2";
    db = await import("~/server/platform/db.server");
    await db.migrateToLatest();
    // The read database's schema, as a replica would have it.
    const replica = await connect(readUrl);
    await replica.query("create table notes (id serial primary key, body text)");
  });
  afterAll(async () => {
    await db?.closeDb();
  });

  it("is another pool than the primary's", async () => {
    expect(await db.getReadDb()).not.toBe(await db.getDb());
    expect(await db.getReadDbUnlessOwn(1, 1)).toBe(await db.getDb());
    expect(await db.getReadDbUnlessOwn(1, 2)).toBe(await db.getReadDb());
  });

  it("refuses a write (query builder, raw SQL, in a transaction) with PostgreSQL's read-only error", async () => {
    const { sql } = await import("kysely");
    const read = (await db.getReadDb()) as unknown as Kysely<{ notes: { id: Generated<number>; body: string } }>;
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => "written",
        (e: { code?: string }) => e.code,
      );
    expect(await refused(read.insertInto("notes").values({ body: "x" }).execute())).toBe("25006");
    expect(await refused(sql`insert into notes (body) values ('x')`.execute(read))).toBe("25006");
    expect(await refused(sql`update notes set body = 'y'`.execute(read))).toBe("25006");
    expect(
      await refused(read.transaction().execute((trx) => trx.insertInto("notes").values({ body: "x" }).execute())),
    ).toBe("25006");
    // Nothing was written, and the pool goes on reading after each refusal.
    expect(await read.selectFrom("notes").select("id").execute()).toEqual([]);
  });

  it("runs with the primary's statement settings", async () => {
    const { sql } = await import("kysely");
    const read = await db.getReadDb();
    const show = async (name: string) =>
      (await sql<{ v: string }>`select current_setting(${name}) as v`.execute(read)).rows[0]!.v;
    expect(await show("statement_timeout")).toBe("4321ms");
    expect(await show("jit")).toBe("off");
    expect(await show("transaction_read_only")).toBe("on");
    const inTransaction = await read
      .transaction()
      .execute(
        async (trx) =>
          (await sql<{ v: string }>`select current_setting('transaction_read_only') as v`.execute(trx)).rows[0]!.v,
      );
    expect(inTransaction).toBe("on");
  });

  it("answers a request 503 when no read connection is free in time, as the primary's pool does", async () => {
    const { sql } = await import("kysely");
    const { withRequestContext } = await import("~/server/platform/request-context.server");
    const read = await db.getReadDb();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const holders = [1, 2].map(() =>
      read.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await gate;
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(db.poolUsage("read")).toMatchObject({ total: 2 });
    const before = db.poolStats.waitTimeouts;
    const error = await withRequestContext("r", true, () =>
      sql`select 1`.execute(read).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    open();
    await Promise.all(holders);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(503);
    expect((error as Response).headers.get("retry-after")).toBe("1");
    expect(db.poolStats.waitTimeouts).toBe(before + 1);
    // The primary's pool was never in the way.
    expect((await sql<{ one: number }>`select 1 as one`.execute(await db.getDb())).rows[0]!.one).toBe(1);
  });
});

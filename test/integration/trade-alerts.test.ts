import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";

// Live trade alerts (issue 34 point 3, DECISIONS 215), in process on the test database: an import
// step of an opted-in trader records alerts and queues their jobs (pg-boss's own table is read to
// see them); the tests run the jobs' handlers themselves, with a clock of their own, so a delay is
// checked without waiting for it.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const alerts = await import("~/server/community/trade-alerts.server");
const { commitStep, startImport } = await import("~/server/linking/steps.server");
const { follow } = await import("~/server/community/follows.server");
const { setBlocked } = await import("~/server/community/messages.server");
const { saveNotificationSettings } = await import("~/server/community/notifications.server");
const { notificationText } = await import("~/lib/notifications");
const { enqueue } = await import("~/server/platform/jobs.server");

beforeAll(async () => {
  await migrateToLatest();
  // pg-boss's schema and queues exist once the queue has opened (no workers: the test runs the jobs).
  await enqueue(null, "trade-alert-sync", {});
});

let seq = 0;
const tag = `${Date.now().toString(36)}${process.pid}`;
const MIN = 60_000;

async function user(last: string, opts: { timeZone?: string } = {}): Promise<number> {
  const db = await getDb();
  const row = await db
    .insertInto("users")
    .values({
      email: `alerts-${tag}-${seq++}@example.com`,
      first_name: "Alert",
      last_name: `${last}${tag}`,
      ...(opts.timeZone ? { time_zone: opts.timeZone } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A trader with a graded portfolio worth 10,000 (so a 500 trade is 5 %), and a wallet. */
async function trader(opts: { tier?: string; selfReported?: boolean } = {}) {
  const id = await user("Trader");
  const db = await getDb();
  const evaluation = await db
    .insertInto("evaluations")
    .values({
      user_id: id,
      engine_version: "test",
      ledger_digest: "x",
      tier: opts.tier ?? "Gold",
      score: 70,
      percentile: null,
      verification_code: `GR-ALR${id}-${seq++}`,
      result: JSON.stringify({
        positions: [
          { symbol: "MSFT", marketValue: 6000 },
          { symbol: "AAPL", marketValue: 4000 },
        ],
        metrics: { baseCurrency: "USD" },
      }),
      demo: false,
      self_reported: opts.selfReported ?? false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("users").set({ current_evaluation_id: evaluation.id }).where("id", "=", id).execute();
  const account = await db
    .insertInto("linked_accounts")
    .values({ user_id: id, kind: "evm", fingerprint: `evm:alerts-${tag}-${seq++}`, label: "Wallet" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, accountId: account.id };
}

type Trade = { externalId: string; time: Date; symbol?: string; side?: "buy" | "sell"; quantity?: number };

/** One import step of the account that stores these trades, committed as the providers do. */
async function importTrades(
  t: { id: number; accountId: number },
  trades: Trade[],
  reason: "poll" | "link" | "webhook" | "sync" = "poll",
) {
  const db = await getDb();
  const importId = await db
    .transaction()
    .execute((trx) => startImport(trx, { userId: t.id, linkedAccountId: t.accountId, reason, regrade: false }));
  await commitStep(
    {
      id: importId,
      user_id: t.id,
      linked_account_id: t.accountId,
      state: "fetching",
      cursor: { step: 0 },
      fetched: 0,
      skipped: [],
      regrade: false,
      kind: "evm",
      fingerprint: "x",
    },
    async (trx) => {
      const res = await trx
        .insertInto("trades")
        .values(
          trades.map((tr) => ({
            linked_account_id: t.accountId,
            external_id: tr.externalId,
            time: tr.time,
            symbol: tr.symbol ?? "AAPL",
            asset_class: "stock" as const,
            side: tr.side ?? "buy",
            quantity: tr.quantity ?? 5,
            price: 100,
          })),
        )
        .onConflict((oc) => oc.columns(["linked_account_id", "external_id"]).doNothing())
        .returning("id")
        .execute();
      return res.length;
    },
    { state: "done", cursor: { step: 0 } },
  );
}

async function alertsOf(traderId: number) {
  const db = await getDb();
  return db.selectFrom("trade_alerts").selectAll().where("trader_id", "=", traderId).orderBy("id").execute();
}

/** The queued jobs of a queue about one alert (pg-boss's table). */
async function jobs(name: string, alertId: string) {
  const db = await getDb();
  const rows = await sql<{ data: { alertId: string; userIds?: number[] }; start_after: Date }>`
    select data, start_after from pgboss.job where name = ${name} and data ->> 'alertId' = ${alertId}
    order by created_on`.execute(db);
  return rows.rows;
}

async function bell(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("notifications")
    .select(["kind", "actor_id", "url", "data", "count"])
    .where("user_id", "=", userId)
    .where("kind", "=", "trade_alert")
    .execute();
}

async function stream(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("live_events")
    .select(["kind", "data"])
    .where("user_id", "=", userId)
    .where("kind", "=", "trade_alert")
    .execute();
}

/** A follower who subscribed to the trader's alerts. */
async function subscriber(traderId: number, last = "Fan") {
  const id = await user(last);
  expect(await follow(id, traderId)).toMatchObject({ ok: true });
  expect(await alerts.subscribeToAlerts(id, traderId)).toEqual({ ok: true });
  return id;
}

/** Runs an alert's fan-out and every delivery batch it queued, at `now`. */
async function runAlert(alertId: string, now: Date) {
  const fan = await alerts.tradeAlertJob({ alertId }, now);
  const told: number[] = [];
  for (const job of await jobs("trade-alert-deliver", alertId))
    told.push(...(await alerts.deliverTradeAlert({ alertId, userIds: job.data.userIds! }, now)));
  return { ...fan, told };
}

describe("live trade alerts", () => {
  it("waits for the trader's delay, then tells each subscriber on the bell and the stream, with no amount", async () => {
    const t = await trader({ tier: "Platinum" });
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "15m", hideSizes: true });
    const fan = await subscriber(t.id);
    const bystander = await user("Bystander");
    await follow(bystander, t.id); // follows, never subscribed
    const traded = new Date(Date.now() - 2 * MIN);
    await importTrades(t, [{ externalId: `d-${tag}-1`, time: traded, quantity: 5 }]);

    const [alert] = await alertsOf(t.id);
    expect(alert).toMatchObject({ symbol: "AAPL", side: "buy", fanned_out_at: null });
    // Due 15 minutes after the trade, and its job starts no earlier.
    expect(Math.abs(new Date(alert!.deliver_at).getTime() - (traded.getTime() + 15 * MIN))).toBeLessThan(1000);
    const [job] = await jobs("trade-alert", alert!.id);
    expect(new Date(job!.start_after).getTime()).toBeGreaterThanOrEqual(traded.getTime() + 15 * MIN - 1000);

    // Run early (a clock ahead, a retry): nothing is told, and it waits again.
    const early = await runAlert(alert!.id, new Date());
    expect(early.batches).toBe(0);
    expect(early.waiting).toBeGreaterThan(10 * 60);
    expect(await bell(fan)).toHaveLength(0);
    expect(await stream(fan)).toHaveLength(0);

    // After the delay: one batch, the subscriber told.
    const later = new Date(traded.getTime() + 16 * MIN);
    const done = await runAlert(alert!.id, later);
    expect(done.batches).toBe(1);
    expect(done.told).toEqual([fan]);
    const [n] = await bell(fan);
    expect(n).toMatchObject({ actor_id: t.id, url: `/u/${t.id}/transactions`, count: 1 });
    expect(n!.data).toEqual({ symbol: "AAPL", side: "buy", tier: "Platinum", share: 0.05, quantity: null });
    const text = notificationText({ kind: "trade_alert", count: 1, actor: "Ann Alert", data: n!.data });
    expect(text).toBe("Ann Alert bought AAPL · 5% of the portfolio · Platinum");
    // Sizes hidden: neither the quantity (5) nor the trade's value (500) anywhere.
    const [event] = await stream(fan);
    expect(event!.data).toMatchObject({ trader_id: t.id, symbol: "AAPL", side: "buy", tier: "Platinum", share: 0.05 });
    expect((event!.data as { quantity: unknown }).quantity).toBeNull();
    // The toast's words come with it (the trader's name), without another request.
    expect((event!.data as { trader_name: string }).trader_name).toBe(`Alert Trader${tag}`);
    expect(JSON.stringify([n!.data, event!.data])).not.toMatch(/\b500\b|"quantity":5/);
    expect(await bell(bystander)).toHaveLength(0);

    // Run again (a retried job): nobody is told twice.
    expect((await runAlert(alert!.id, later)).told).toEqual([]);
    expect(await alerts.deliverTradeAlert({ alertId: alert!.id, userIds: [fan] }, later)).toEqual([]);
    expect(await bell(fan)).toMatchObject([{ count: 1 }]);
    expect(await stream(fan)).toHaveLength(1);
  });

  it("shows the quantity only when the trader shows sizes, checked when it is delivered", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: false });
    const fan = await subscriber(t.id);
    await importTrades(t, [{ externalId: `s-${tag}-1`, time: new Date(Date.now() - MIN), side: "sell", quantity: 7 }]);
    const [alert] = await alertsOf(t.id);
    // No delay: due at once, its job not deferred.
    expect(new Date(alert!.deliver_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    await runAlert(alert!.id, new Date());
    const [n] = await bell(fan);
    expect(n!.data).toMatchObject({ side: "sell", quantity: 7 });
    expect(notificationText({ kind: "trade_alert", count: 1, actor: "Bo", data: n!.data })).toBe(
      "Bo sold 7 AAPL · 7% of the portfolio · Gold",
    );

    // Sizes hidden after the import, before delivery: the next alert has no quantity.
    await importTrades(t, [{ externalId: `s-${tag}-2`, time: new Date(Date.now() - MIN), quantity: 3 }]);
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    const second = (await alertsOf(t.id))[1]!;
    await runAlert(second.id, new Date());
    const events = await stream(fan);
    expect(events).toHaveLength(2);
    expect((events[1]!.data as { quantity: unknown }).quantity).toBeNull();
  });

  it("never reaches someone the trader blocked, nor someone who blocked the trader", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    const fan = await subscriber(t.id, "Fan");
    const blocked = await subscriber(t.id, "Blocked");
    const blocker = await subscriber(t.id, "Blocker");
    await importTrades(t, [{ externalId: `b-${tag}-1`, time: new Date(Date.now() - MIN) }]);
    const [alert] = await alertsOf(t.id);
    // Blocks made after the subscription and the import: read at delivery. (The route also
    // removes the blocked follower's follow; the table alone is what is checked here.)
    await setBlocked(t.id, blocked, true);
    await setBlocked(blocker, t.id, true);
    const done = await runAlert(alert!.id, new Date());
    expect(done.told).toEqual([fan]);
    expect(await bell(blocked)).toHaveLength(0);
    expect(await stream(blocked)).toHaveLength(0);
    expect(await bell(blocker)).toHaveLength(0);
    // And a blocked user cannot subscribe again.
    expect(await alerts.subscribeToAlerts(blocked, t.id)).toMatchObject({ ok: false, status: 403 });
  });

  it("sends nothing once the trader opts out, and records nothing while opted out", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "15m", hideSizes: true });
    const fan = await subscriber(t.id);
    await importTrades(t, [{ externalId: `o-${tag}-1`, time: new Date(Date.now() - MIN) }]);
    const [alert] = await alertsOf(t.id);
    await alerts.saveTradeAlertSettings(t.id, { enabled: false, delay: "15m", hideSizes: true });
    const done = await runAlert(alert!.id, new Date(Date.now() + 60 * MIN));
    expect(done.batches).toBe(0);
    expect(await bell(fan)).toHaveLength(0);
    // A delivery batch queued before the opt-out delivers nothing either.
    expect(
      await alerts.deliverTradeAlert({ alertId: alert!.id, userIds: [fan] }, new Date(Date.now() + 60 * MIN)),
    ).toEqual([]);
    await importTrades(t, [{ externalId: `o-${tag}-2`, time: new Date(Date.now() - MIN) }]);
    expect(await alertsOf(t.id)).toHaveLength(1);
    // Not opted in: nobody can subscribe.
    const other = await user("Other");
    await follow(other, t.id);
    expect(await alerts.subscribeToAlerts(other, t.id)).toMatchObject({ ok: false, status: 409 });
    expect(await bell(other)).toHaveLength(0);
  });

  it("alerts only new trades, once: not a history, not a first import, not a trade imported again", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    await subscriber(t.id);
    // The account's first import: a history, however recent, tells nobody.
    await importTrades(t, [{ externalId: `h-${tag}-0`, time: new Date(Date.now() - MIN) }], "link");
    expect(await alertsOf(t.id)).toHaveLength(0);
    // Old trades arriving late (a history page): not news.
    await importTrades(t, [
      { externalId: `h-${tag}-1`, time: new Date(Date.now() - 5 * 24 * 60 * MIN) },
      { externalId: `h-${tag}-2`, time: new Date(Date.now() - 2 * MIN) },
    ]);
    expect((await alertsOf(t.id)).map((a) => a.external_id)).toEqual([`h-${tag}-2`]);
    // The same trades imported again: nothing added, nothing alerted.
    await importTrades(t, [
      { externalId: `h-${tag}-1`, time: new Date(Date.now() - 5 * 24 * 60 * MIN) },
      { externalId: `h-${tag}-2`, time: new Date(Date.now() - 2 * MIN) },
    ]);
    // A trade deleted and stored again (a new row id): the same trade, no second alert.
    const db = await getDb();
    await db
      .deleteFrom("trades")
      .where("linked_account_id", "=", t.accountId)
      .where("external_id", "=", `h-${tag}-2`)
      .execute();
    await importTrades(t, [{ externalId: `h-${tag}-2`, time: new Date(Date.now() - 2 * MIN) }], "webhook");
    expect(await alertsOf(t.id)).toHaveLength(1);
    // Trades from before the day the trader opted in are not news either.
    const late = await trader();
    await alerts.saveTradeAlertSettings(late.id, { enabled: true, delay: "none", hideSizes: true });
    await db
      .updateTable("trade_alert_settings")
      .set({ since: new Date(Date.now() + 24 * 60 * MIN) })
      .where("user_id", "=", late.id)
      .execute();
    await importTrades(late, [{ externalId: `h-${tag}-3`, time: new Date(Date.now() - MIN) }]);
    expect(await alertsOf(late.id)).toHaveLength(0);
  });

  it("ends at the trader's midnight with the end-of-day delay", async () => {
    const t = await trader();
    const db = await getDb();
    await db.updateTable("users").set({ time_zone: "America/New_York" }).where("id", "=", t.id).execute();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "eod", hideSizes: true });
    const traded = new Date(Date.now() - MIN);
    await importTrades(t, [{ externalId: `e-${tag}-1`, time: traded }]);
    const [alert] = await alertsOf(t.id);
    const expected = await sql<{ at: Date }>`
      select (date_trunc('day', ${traded}::timestamptz at time zone 'America/New_York') + interval '1 day')
        at time zone 'America/New_York' as at`.execute(db);
    expect(new Date(alert!.deliver_at).toISOString()).toBe(new Date(expected.rows[0]!.at).toISOString());
    // New York's midnight is 04:00 or 05:00 UTC.
    expect([4, 5]).toContain(new Date(alert!.deliver_at).getUTCHours());
  });

  it("fans out to many subscribers as jobs of ALERT_BATCH, and leaves out those who muted alerts", async () => {
    const t = await trader({ selfReported: true });
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    const db = await getDb();
    const n = alerts.ALERT_BATCH * 2 + 1;
    const made = await sql<{ id: number }>`
      insert into users (email, first_name, last_name)
      select 'alerts-many-' || ${tag} || '-' || g || '@example.com', 'Many', 'Fan' from generate_series(1, ${n}) g
      returning id`.execute(db);
    const ids = made.rows.map((r) => r.id);
    await sql`insert into follows (follower_id, followee_id) select unnest(${sql.val(ids)}::int[]), ${t.id}`.execute(
      db,
    );
    await sql`insert into trade_alert_subscriptions (trader_id, subscriber_id) select ${t.id}, unnest(${sql.val(ids)}::int[])`.execute(
      db,
    );
    const muted = ids[3]!;
    await saveNotificationSettings(muted, { muted: ["trade_alert"], push: [], digest: "off" });
    await importTrades(t, [{ externalId: `m-${tag}-1`, time: new Date(Date.now() - MIN) }]);
    const [alert] = await alertsOf(t.id);
    const fan = await alerts.tradeAlertJob({ alertId: alert!.id }, new Date());
    expect(fan.batches).toBe(3);
    const batches = await jobs("trade-alert-deliver", alert!.id);
    expect(batches.map((b) => b.data.userIds!.length).sort((a, b) => b - a)).toEqual([
      alerts.ALERT_BATCH,
      alerts.ALERT_BATCH,
      1,
    ]);
    expect(new Set(batches.flatMap((b) => b.data.userIds!)).size).toBe(n);
    let told = 0;
    for (const b of batches)
      told += (await alerts.deliverTradeAlert({ alertId: alert!.id, userIds: b.data.userIds! })).length;
    expect(told).toBe(n - 1);
    expect(await bell(muted)).toHaveLength(0);
    // A self-reported grade is no verified tier.
    const [first] = await bell(ids[0]!);
    expect(first!.data).toMatchObject({ tier: null });
  });

  it("re-syncs opted-in traders' wallets on the schedule, at most every SYNC_MIN_MINUTES", async () => {
    const on = await trader();
    const off = await trader();
    await alerts.saveTradeAlertSettings(on.id, { enabled: true, delay: "none", hideSizes: true });
    const db = await getDb();
    const stale = new Date(Date.now() - (alerts.SYNC_MIN_MINUTES + 5) * MIN);
    await db
      .updateTable("linked_accounts")
      .set({ last_imported_at: stale })
      .where("id", "in", [on.accountId, off.accountId])
      .execute();
    await alerts.tradeAlertSyncJob();
    const started = await db
      .selectFrom("imports")
      .select(["linked_account_id", "reason", "regrade"])
      .where("linked_account_id", "in", [on.accountId, off.accountId])
      .execute();
    expect(started).toEqual([{ linked_account_id: on.accountId, reason: "sync", regrade: false }]);
    // Running: not started twice.
    await alerts.tradeAlertSyncJob();
    expect(
      await db.selectFrom("imports").select("id").where("linked_account_id", "=", on.accountId).execute(),
    ).toHaveLength(1);
  });
});

// The same chain on real workers: the import step's job runs when due, queues its batch, and the
// batch reaches the subscriber's bell and stream, with no call from the test.
// Before the workers' test: on PGlite its workers keep the one connection busy afterwards.
describe("a club's live trade alerts", () => {
  it("an alert's fan-out tells the open pages of the trader's clubs (a `club` alerts event), not the removed or outsiders", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    const [member, removed, outsider] = [await user("Member"), await user("Removed"), await user("Outsider")];
    const db = await getDb();
    const club = await db
      .insertInto("clubs")
      .values({
        slug: `alerts-club-${tag}-${seq++}`,
        name: `Alerts club ${tag} ${seq++}`,
        description: "Members who trade live.",
        join_policy: "open",
        owner_id: t.id,
        member_count: 2,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("club_members")
      .values([
        { club_id: club.id, user_id: t.id, role: "owner", status: "active" },
        { club_id: club.id, user_id: member, role: "member", status: "active" },
        { club_id: club.id, user_id: removed, role: "member", status: "removed" },
      ])
      .execute();
    await importTrades(t, [{ externalId: `club-${tag}-1`, time: new Date(Date.now() - MIN) }]);
    const [alert] = await alertsOf(t.id);
    await runAlert(alert!.id, new Date());
    const clubEvents = async (userId: number) =>
      (
        await db
          .selectFrom("live_events")
          .select("data")
          .where("user_id", "=", userId)
          .where("kind", "=", "club")
          .execute()
      ).map((r) => r.data);
    expect(await clubEvents(member)).toEqual([{ club_id: club.id, what: "alerts" }]);
    expect(await clubEvents(removed)).toEqual([]);
    expect(await clubEvents(outsider)).toEqual([]);
    // A retried fan-out (already claimed) tells nobody again.
    await runAlert(alert!.id, new Date());
    expect(await clubEvents(member)).toHaveLength(1);
  });
});

describe("pruning delivery records", () => {
  it("deletes records older than 30 days in batches, keeps newer ones and the alerts", async () => {
    const t = await trader();
    await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
    const fans = [await subscriber(t.id), await subscriber(t.id), await subscriber(t.id), await subscriber(t.id)];
    await importTrades(t, [{ externalId: `prune-${tag}-1`, time: new Date(Date.now() - MIN) }]);
    const [alert] = await alertsOf(t.id);
    expect((await runAlert(alert!.id, new Date())).told.sort()).toEqual([...fans].sort());
    const db = await getDb();
    const now = new Date();
    // Three of the four records are 31 days old, one 29.
    await db
      .updateTable("trade_alert_deliveries")
      .set({ created_at: new Date(now.getTime() - 31 * 86_400_000) })
      .where("alert_id", "=", alert!.id)
      .where("user_id", "in", fans.slice(0, 3))
      .execute();
    await db
      .updateTable("trade_alert_deliveries")
      .set({ created_at: new Date(now.getTime() - 29 * 86_400_000) })
      .where("alert_id", "=", alert!.id)
      .where("user_id", "=", fans[3]!)
      .execute();
    const left = async () =>
      (await db.selectFrom("trade_alert_deliveries").select("user_id").where("alert_id", "=", alert!.id).execute()).map(
        (r) => r.user_id,
      );
    // Batches of 2: two statements, the second short, and nothing else of this alert's.
    expect(await alerts.pruneTradeAlertDeliveries(now, 2)).toBeGreaterThanOrEqual(3);
    expect(await left()).toEqual([fans[3]]);
    expect(await alertsOf(t.id)).toHaveLength(1);
    // Idempotent: the next run finds nothing of these.
    await alerts.pruneTradeAlertDeliveries(now, 2);
    expect(await left()).toEqual([fans[3]]);
  });
});

describe("on pg-boss's workers", () => {
  it("takes an alert from the import to the subscriber", async () => {
    const { startJobs, stopJobs } = await import("~/server/platform/jobs.server");
    await startJobs({
      "trade-alert": alerts.tradeAlertJobHandlers["trade-alert"],
      "trade-alert-deliver": alerts.tradeAlertJobHandlers["trade-alert-deliver"],
    });
    try {
      const t = await trader();
      await alerts.saveTradeAlertSettings(t.id, { enabled: true, delay: "none", hideSizes: true });
      const fan = await subscriber(t.id);
      await importTrades(t, [{ externalId: `w-${tag}-1`, time: new Date(Date.now() - MIN), symbol: "NVDA" }]);
      const deadline = Date.now() + 30_000;
      while ((await bell(fan)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await bell(fan)).toMatchObject([{ data: { symbol: "NVDA", side: "buy", quantity: null } }]);
      expect(await stream(fan)).toHaveLength(1);
    } finally {
      await stopJobs(5_000);
    }
  }, 60_000);
});

// The pages over HTTP against the built server (same database; PGlite has none to share): plain
// form posts, as a browser without JavaScript sends them.
describe.skipIf(!process.env.DATABASE_URL)("the settings page and the profile's subscribe form", () => {
  async function idOf(email: string) {
    const db = await getDb();
    return (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  }

  it("opts in with a delay and hidden sizes, then a follower subscribes and unsubscribes", async () => {
    const trader = await signUp();
    const fan = await signUp();
    const traderId = await idOf(trader.email);
    const fanId = await idOf(fan.email);

    // Off by default; the settings page links to it.
    expect(await (await get("/user/settings", { cookie: trader.cookie })).text()).toContain(
      'href="/user/settings/live-alerts"',
    );
    const page = await (await get("/user/settings/live-alerts", { cookie: trader.cookie })).text();
    expect(page).toMatch(/<h1[^>]*>Live trade alerts<\/h1>/);
    expect(page).toMatch(/<input type="checkbox" name="enabled" value="on"\/>/);
    // Not opted in: the profile offers no alerts.
    await postForm(`/u/${traderId}`, { intent: "follow", redirect_to: `/u/${traderId}` }, { cookie: fan.cookie });
    expect(await (await get(`/u/${traderId}`, { cookie: fan.cookie })).text()).not.toContain("live trade alerts");

    // A mistake comes back with what was typed, not a 5xx.
    const bad = await postForm(
      "/user/settings/live-alerts",
      { enabled: "on", delay: "1h", sizes: "shown" },
      {
        cookie: trader.cookie,
      },
    );
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Choose when your trades are shared.");
    expect(badHtml).toContain('<input type="radio" name="sizes" checked="" value="shown"/>');

    const saved = await postForm(
      "/user/settings/live-alerts",
      { enabled: "on", delay: "eod", sizes: "hidden" },
      {
        cookie: trader.cookie,
      },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Your trades are shared live with your subscribers.");
    expect(await alerts.getTradeAlertSettings(traderId)).toMatchObject({
      enabled: true,
      delay: "eod",
      hideSizes: true,
    });

    // The follower subscribes from the profile (a redirect back, as the follow button does).
    expect(await (await get(`/u/${traderId}`, { cookie: fan.cookie })).text()).toContain("Get live trade alerts");
    const on = await postForm(
      `/u/${traderId}`,
      { intent: "alerts-on", redirect_to: `/u/${traderId}` },
      {
        cookie: fan.cookie,
      },
    );
    expect(on.status).toBe(303);
    expect(await alerts.alertSubscription(fanId, traderId)).toEqual({ available: true, subscribed: true });
    expect(await (await get(`/u/${traderId}`, { cookie: fan.cookie })).text()).toContain("Stop live trade alerts");
    await postForm(`/u/${traderId}`, { intent: "alerts-off", redirect_to: `/u/${traderId}` }, { cookie: fan.cookie });
    expect(await alerts.alertSubscription(fanId, traderId)).toEqual({ available: true, subscribed: false });

    // Someone who does not follow is told to follow first, and refused if they post anyway.
    const stranger = await signUp();
    expect(await (await get(`/u/${traderId}`, { cookie: stranger.cookie })).text()).toContain(
      "Shares trades live: follow to get alerts",
    );
    const refused = await postForm(
      `/u/${traderId}`,
      { intent: "alerts-on", redirect_to: `/u/${traderId}` },
      {
        cookie: stranger.cookie,
      },
    );
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Follow this trader first");

    // The notification settings offer the kind, with push.
    const notif = await (await get("/user/settings/notifications", { cookie: fan.cookie })).text();
    expect(notif).toContain('value="trade_alert"');
    expect(notif).toContain("Live trade alerts of traders you subscribe to");
  });
});

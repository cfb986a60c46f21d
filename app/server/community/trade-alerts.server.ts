import { sql } from "kysely";
import { displayName, type NameFields } from "~/lib/display-name";
import { LINKABLE_EXCHANGES } from "~/lib/exchanges";
import type { LiveEventMap } from "~/lib/live-events";
import type { Refusal } from "~/lib/refusal";
import type { AlertDelay, TradeAlertSettingsInput } from "~/lib/trade-alerts";
import { RUNNING, startImports } from "../linking/steps.server";
import { getDb, type DB } from "../platform/db.server";
import type { ImportReason } from "../platform/db/schema";
import { enqueue } from "../platform/jobs.server";
import { raiseLive } from "../platform/live.server";
import { log } from "../platform/log.server";
import { raiseClubLive } from "./club-live.server";
import { isFollowing } from "./follows.server";
import { isBlockedEitherWay } from "./messages.server";
import { notify } from "./notifications.server";

/**
 * Live trade alerts (issue 34 point 3, DECISIONS 215). A trader opts in, with a delay and whether
 * sizes are hidden; followers subscribe per trader. An import step that stores new recent trades of
 * an opted-in trader records one alert per trade (unique by account and external id: a re-import
 * alerts nothing twice) and queues its `trade-alert` job to start no earlier than the delay. That
 * job picks the audiences and queues `trade-alert-deliver` jobs of ALERT_BATCH recipients; each
 * delivers to the bell (so to push and the digest, per the recipient's settings) and the live
 * stream. Everything a trader can change (opting out, a longer delay, hiding sizes, a block) is
 * read again when the alert is delivered.
 */

/** Recipients per delivery job: a trader with 10,000 subscribers is 20 jobs. */
export const ALERT_BATCH = 500;
/** Only trades executed this recently are news; older ones arriving late (a history) are not. */
export const ALERT_WINDOW_HOURS = 72;
/** The scheduled sync re-imports an opted-in trader's wallet or exchange account at most this often. */
export const SYNC_MIN_MINUTES = 15;
/** Accounts per sync run, so one run stays short; the rest wait for the next one. */
const SYNC_MAX_ACCOUNTS = 200;
/** The kinds the sync covers: wallets and exchanges (Plaid has its webhooks and its own poll). */
const SYNC_KINDS = ["evm", "solana", ...LINKABLE_EXCHANGES] as const;

export type TradeAlertSettings = {
  enabled: boolean;
  delay: AlertDelay;
  hideSizes: boolean;
  since: string | null;
  /** Where "the end of the day" is (users.time_zone). */
  timeZone: string;
};

export async function getTradeAlertSettings(userId: number, db?: DB): Promise<TradeAlertSettings> {
  const row = await (db ?? (await getDb()))
    .selectFrom("users")
    .leftJoin("trade_alert_settings as s", "s.user_id", "users.id")
    .select(["s.enabled", "s.delay", "s.hide_sizes", "s.since", "users.time_zone"])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  return {
    enabled: row?.enabled ?? false,
    delay: row?.delay ?? "15m",
    hideSizes: row?.hide_sizes ?? true,
    since: row?.since ? new Date(row.since).toISOString() : null,
    timeZone: row?.time_zone ?? "UTC",
  };
}

/**
 * Saves the trader's choice; a field left out (the JSON API's PATCH) keeps its value, in the one
 * statement, so two changes at once never undo each other. Turning it on (from off) starts `since`
 * now, so trades from before that day are never alerted; turning it off keeps the delay and sizes
 * for next time.
 */
export async function saveTradeAlertSettings(userId: number, input: Partial<TradeAlertSettingsInput>): Promise<void> {
  const db = await getDb();
  const enabled = input.enabled ?? null;
  const delay = input.delay ?? null;
  const hide = input.hideSizes ?? null;
  const on = sql`coalesce(${enabled}::boolean, trade_alert_settings.enabled)`;
  await sql`
    insert into trade_alert_settings (user_id, enabled, delay, hide_sizes, since, updated_at)
    values (${userId}, coalesce(${enabled}::boolean, false), coalesce(${delay}::text, '15m'),
            coalesce(${hide}::boolean, true), case when ${enabled}::boolean then now() end, now())
    on conflict (user_id) do update set
      enabled = ${on},
      delay = coalesce(${delay}::text, trade_alert_settings.delay),
      hide_sizes = coalesce(${hide}::boolean, trade_alert_settings.hide_sizes),
      updated_at = now(),
      since = case when ${on} and not trade_alert_settings.enabled then now()
                   when ${on} then trade_alert_settings.since end`.execute(db);
}

// ---- Subscriptions -----------------------------------------------------------------------------

/** What the trader's profile shows the viewer: whether alerts exist, and whether they subscribed. */
export async function alertSubscription(
  viewerId: number,
  traderId: number,
): Promise<{ available: boolean; subscribed: boolean }> {
  if (viewerId === traderId) return { available: false, subscribed: false };
  const db = await getDb();
  const [settings, sub] = await Promise.all([
    getTradeAlertSettings(traderId, db),
    db
      .selectFrom("trade_alert_subscriptions")
      .select("created_at")
      .where("trader_id", "=", traderId)
      .where("subscriber_id", "=", viewerId)
      .executeTakeFirst(),
  ]);
  return { available: settings.enabled, subscribed: Boolean(sub) };
}

/**
 * Subscribes the viewer to a trader's alerts: only a follower (alerts are the live part of
 * following), only while the trader shares them, and never across a block either way.
 */
export async function subscribeToAlerts(
  viewerId: number,
  traderId: number,
): Promise<{ ok: true } | Refusal<400 | 403 | 404 | 409>> {
  if (viewerId === traderId) return { ok: false, status: 400, message: "Your own trades need no alert." };
  const db = await getDb();
  // Asked for by id in the JSON API: a trader who does not exist is not "not sharing".
  if (!(await db.selectFrom("users").select("id").where("id", "=", traderId).executeTakeFirst()))
    return { ok: false, status: 404, message: "No such trader." };
  if (await isBlockedEitherWay(viewerId, traderId))
    return { ok: false, status: 403, message: "You cannot get this trader’s alerts." };
  if (!(await getTradeAlertSettings(traderId)).enabled)
    return { ok: false, status: 409, message: "This trader does not share trades live." };
  if (!(await isFollowing(viewerId, traderId)))
    return { ok: false, status: 409, message: "Follow this trader first to get their live trade alerts." };
  await db
    .insertInto("trade_alert_subscriptions")
    .values({ trader_id: traderId, subscriber_id: viewerId })
    .onConflict((oc) => oc.columns(["trader_id", "subscriber_id"]).doNothing())
    .execute();
  return { ok: true };
}

export async function unsubscribeFromAlerts(viewerId: number, traderId: number): Promise<{ ok: true }> {
  const db = await getDb();
  await db
    .deleteFrom("trade_alert_subscriptions")
    .where("trader_id", "=", traderId)
    .where("subscriber_id", "=", viewerId)
    .execute();
  return { ok: true };
}

export type AlertSubscriptionView = {
  trader: {
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar: string | null;
  };
  /** Whether the trader shares trades live now (a subscription outlives an opt-out, silently). */
  sharing: boolean;
  subscribed_at: string;
};

/** The traders whose alerts the user gets, newest subscription first. */
export async function alertSubscriptionsOf(subscriberId: number): Promise<AlertSubscriptionView[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("trade_alert_subscriptions as sub")
    .innerJoin("users", "users.id", "sub.trader_id")
    .leftJoin("trade_alert_settings as s", "s.user_id", "sub.trader_id")
    .select([
      "users.id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.avatar_url",
      "s.enabled",
      "sub.created_at",
    ])
    .where("sub.subscriber_id", "=", subscriberId)
    .orderBy("sub.created_at", "desc")
    .orderBy("users.id", "desc")
    .execute();
  return rows.map((r) => ({
    trader: {
      id: r.id,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      name: r.name,
      avatar: r.avatar_url,
    },
    sharing: r.enabled ?? false,
    subscribed_at: new Date(r.created_at).toISOString(),
  }));
}

// ---- Recording alerts at import ----------------------------------------------------------------

/** Where an import step stood before its rows: null when the trader does not share trades live. */
export type AlertMark = { userId: number; linkedAccountId: number; lastTradeId: string };

/** Read before a step writes its trades (steps.server.ts): the account's last trade id. */
export async function markBeforeTrades(trx: DB, userId: number, linkedAccountId: number): Promise<AlertMark | null> {
  const on = await trx
    .selectFrom("trade_alert_settings")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("enabled", "=", true)
    .executeTakeFirst();
  if (!on) return null;
  const row = await sql<{ last: string | null }>`
    select max(id)::text as last from trades where linked_account_id = ${linkedAccountId}`.execute(trx);
  return { userId, linkedAccountId, lastTradeId: row.rows[0]?.last ?? "0" };
}

/**
 * Records an alert for each trade this step stored (ids past the mark) that is news: executed in
 * the last ALERT_WINDOW_HOURS, not before the day (UTC) the trader turned alerts on, and not from an
 * account's first import (a history, however recent). Each gets its `trade-alert` job, to start at
 * the trade's time plus the delay (at once when that has passed). Returns how many were recorded.
 */
export async function recordTradeAlerts(trx: DB, mark: AlertMark, reason: ImportReason): Promise<number> {
  if (reason === "link") return 0;
  const rows = await sql<{ id: string; wait: number }>`
    with s as (
      select s.since, s.delay, u.time_zone from trade_alert_settings s join users u on u.id = s.user_id
      where s.user_id = ${mark.userId} and s.enabled and s.since is not null
    )
    insert into trade_alerts (trader_id, linked_account_id, external_id, trade_id, symbol, side, traded_at, deliver_at)
    select ${mark.userId}, t.linked_account_id, t.external_id, t.id, t.symbol, t.side, t.time,
      greatest(now(), ${deliverAt(sql`t.time`, sql`s.delay`, sql`s.time_zone`)})
    from trades t cross join s
    where t.linked_account_id = ${mark.linkedAccountId} and t.id > ${mark.lastTradeId}::bigint
      and t.time >= now() - make_interval(hours => ${ALERT_WINDOW_HOURS})
      and t.time >= (date_trunc('day', s.since at time zone 'UTC') at time zone 'UTC')
    on conflict (linked_account_id, external_id) do nothing
    returning id::text, greatest(0, ceil(extract(epoch from deliver_at - now())))::int as wait`.execute(trx);
  for (const r of rows.rows)
    await enqueue(trx, "trade-alert", { alertId: r.id }, { startAfterSeconds: r.wait > 0 ? r.wait : undefined });
  return rows.rows.length;
}

/**
 * When a trade executed at `time` may be told under `delay`: at once, 15 minutes after it, or at
 * the end of its day in the trader's time zone (users.time_zone, the Stats tab's).
 */
function deliverAt(time: ReturnType<typeof sql>, delay: ReturnType<typeof sql>, zone: ReturnType<typeof sql>) {
  return sql<Date>`(case ${delay}
    when 'none' then ${time}
    when '15m' then ${time} + interval '15 minutes'
    else (date_trunc('day', ${time} at time zone ${zone}) + interval '1 day') at time zone ${zone} end)`;
}

// ---- The audience ------------------------------------------------------------------------------

/**
 * Who an alert goes to: one or more audiences, each listed when the alert fans out and checked
 * again per batch. Today a trader's subscribers (a club's page reads its members' alerts, clubAlerts,
 * and pushes nothing). Another audience (say `{ kind: "club", clubId }`) goes in audiencesOf,
 * audienceOf and entitled; the rules every audience shares (the delay, the opt-in, hidden sizes,
 * blocks, muted kinds, once per person across audiences) stay in deliverTradeAlert.
 */
export type AlertAudience = { kind: "subscribers" };

/** The audiences of a trader's alerts. */
async function audiencesOf(_db: DB, _traderId: number): Promise<AlertAudience[]> {
  return [{ kind: "subscribers" }];
}

/** Everyone in one audience of `traderId`'s alerts, by id. */
async function audienceOf(db: DB, traderId: number, audience: AlertAudience): Promise<number[]> {
  switch (audience.kind) {
    case "subscribers":
      return entitledSubscribers(db, traderId, null);
  }
}

/** Those of `userIds` still in the audience now (a batch may run long after it was queued). */
async function entitled(db: DB, traderId: number, audience: AlertAudience, userIds: number[]): Promise<number[]> {
  switch (audience.kind) {
    case "subscribers":
      return entitledSubscribers(db, traderId, userIds);
  }
}

// A subscriber who still follows the trader (unfollowing, or being removed by a block, ends alerts).
async function entitledSubscribers(db: DB, traderId: number, among: number[] | null): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    select s.subscriber_id as id from trade_alert_subscriptions s
    join follows f on f.follower_id = s.subscriber_id and f.followee_id = s.trader_id
    where s.trader_id = ${traderId} ${among ? sql`and s.subscriber_id = any(${sql.val(among)}::int[])` : sql``}
    order by s.subscriber_id`.execute(db);
  return rows.rows.map((r) => r.id);
}

// ---- The jobs ----------------------------------------------------------------------------------

type AlertRow = {
  id: string;
  trader_id: number;
  symbol: string;
  side: "buy" | "sell";
  traded_at: Date;
  deliver_at: Date;
  fanned_out_at: Date | null;
  tier: string | null;
  share: number | null;
  enabled: boolean | null;
  delay: AlertDelay | null;
  hide_sizes: boolean | null;
  time_zone: string;
  quantity: number | null;
  due: Date;
} & NameFields;

async function loadAlert(db: DB, alertId: string): Promise<AlertRow | undefined> {
  const rows = await sql<AlertRow>`
    select a.id::text, a.trader_id, a.symbol, a.side, a.traded_at, a.deliver_at, a.fanned_out_at, a.tier, a.share,
      s.enabled, s.delay, s.hide_sizes, u.time_zone, t.quantity, u.first_name, u.last_name, u.name, u.username,
      greatest(a.deliver_at, ${deliverAt(sql`a.traded_at`, sql`coalesce(s.delay, 'eod')`, sql`u.time_zone`)}) as due
    from trade_alerts a
    join users u on u.id = a.trader_id
    left join trade_alert_settings s on s.user_id = a.trader_id
    left join trades t on t.id = a.trade_id
    where a.id = ${alertId}::bigint`.execute(db);
  return rows.rows[0];
}

/** Seconds until `due`, or 0 when it has come. */
const secondsUntil = (due: Date, now: Date) => Math.max(0, Math.ceil((new Date(due).getTime() - now.getTime()) / 1000));

/**
 * The `trade-alert` job, at the alert's time: when the trader still shares trades live and the
 * delay (as set now: a longer one waits longer) has passed, records the tier and share and queues
 * the delivery batches, once (a conditional update). `now` is the test's clock.
 */
export async function tradeAlertJob(
  data: { alertId: string },
  now = new Date(),
): Promise<{ batches: number; waiting?: number }> {
  const db = await getDb();
  const alert = await loadAlert(db, data.alertId);
  if (!alert || alert.fanned_out_at) return { batches: 0 };
  // Opted out since: the alert is never sent.
  if (!alert.enabled) {
    await db.updateTable("trade_alerts").set({ fanned_out_at: now }).where("id", "=", alert.id).execute();
    return { batches: 0 };
  }
  const wait = secondsUntil(alert.due, now);
  if (wait > 0) {
    // Early (a longer delay chosen since, or a clock ahead): back in the queue until it is due.
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("trade_alerts").set({ deliver_at: alert.due }).where("id", "=", alert.id).execute();
      await enqueue(trx, "trade-alert", { alertId: alert.id }, { startAfterSeconds: wait });
    });
    return { batches: 0, waiting: wait };
  }
  const { tier, share } = await tierAndShare(db, alert);
  const audiences: { audience: AlertAudience; recipients: number[] }[] = [];
  for (const audience of await audiencesOf(db, alert.trader_id))
    audiences.push({ audience, recipients: await audienceOf(db, alert.trader_id, audience) });
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("trade_alerts")
      .set({ fanned_out_at: now, tier, share })
      .where("id", "=", alert.id)
      .where("fanned_out_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return { batches: 0 };
    // The alert is now on the "Trade alerts" tab of the trader's clubs: their open pages reload.
    const clubs = await trx
      .selectFrom("club_members")
      .select("club_id")
      .where("user_id", "=", alert.trader_id)
      .where("status", "=", "active")
      .execute();
    for (const c of clubs) await raiseClubLive(trx, c.club_id, "alerts");
    let batches = 0;
    for (const { audience, recipients } of audiences)
      for (let i = 0; i < recipients.length; i += ALERT_BATCH, batches++)
        await enqueue(trx, "trade-alert-deliver", {
          alertId: alert.id,
          audience,
          userIds: recipients.slice(i, i + ALERT_BATCH),
        });
    return { batches };
  });
}

/**
 * The trader's verified tier (a self-reported or demo grade is no verified tier) and the trade's
 * share of the portfolio: its value over the gross value of the current grade's positions, when the
 * trade is in the grade's base currency (another currency would need a rate: no share then).
 */
async function tierAndShare(db: DB, alert: AlertRow): Promise<{ tier: string | null; share: number | null }> {
  const row = await sql<{ tier: string | null; gross: number | null; value: number | null }>`
    select case when e.self_reported or e.demo then null else e.tier end as tier,
      (select sum(abs((p ->> 'marketValue')::float8)) from jsonb_array_elements(coalesce(e.result -> 'positions', '[]'::jsonb)) p) as gross,
      (select abs(t.quantity * t.price * t.multiplier::float8) from trades t join trade_alerts a on a.trade_id = t.id
        where a.id = ${alert.id}::bigint and t.currency = coalesce(e.result -> 'metrics' ->> 'baseCurrency', 'USD')) as value
    from users u left join evaluations e on e.id = u.current_evaluation_id
    where u.id = ${alert.trader_id}`.execute(db);
  const r = row.rows[0];
  if (!r) return { tier: null, share: null };
  const share = r.gross && r.value !== null && r.gross > 0 ? Math.min(1, Number(r.value) / Number(r.gross)) : null;
  return { tier: r.tier, share };
}

/**
 * The `trade-alert-deliver` job: one batch of recipients, in one transaction. Read again now: the
 * trader still shares (and hides sizes or not), the delay has passed, each recipient is still in
 * the audience, neither blocked the other, and has not had this alert (a retried batch tells
 * nobody twice). Returns who was told. Exported as the service a club stream reuses.
 */
export async function deliverTradeAlert(
  data: { alertId: string; userIds: number[]; audience?: AlertAudience },
  now = new Date(),
): Promise<number[]> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const alert = await loadAlert(trx, data.alertId);
    if (!alert || !alert.enabled || !alert.fanned_out_at) return [];
    if (secondsUntil(alert.due, now) > 0) return [];
    const still = await entitled(trx, alert.trader_id, data.audience ?? { kind: "subscribers" }, data.userIds);
    if (!still.length) return [];
    // Blocks either way, and the recipients who turned trade alerts off, are left out; the rest
    // are claimed for this alert (a retried batch finds them taken).
    const told = await sql<{ user_id: number }>`
      insert into trade_alert_deliveries (alert_id, user_id)
      select ${alert.id}::bigint, r.id from unnest(${sql.val(still)}::int[]) as r(id)
      where not exists (select 1 from blocks b where (b.blocker_id = ${alert.trader_id} and b.blocked_id = r.id)
                                              or (b.blocker_id = r.id and b.blocked_id = ${alert.trader_id}))
        and not exists (select 1 from notification_settings s where s.user_id = r.id and 'trade_alert' = any(s.muted))
      on conflict (alert_id, user_id) do nothing
      returning user_id`.execute(trx);
    const to = told.rows.map((r) => r.user_id);
    if (!to.length) return [];
    const event = alertEvent(alert);
    await notify(trx, {
      to,
      kind: "trade_alert",
      actorId: alert.trader_id,
      subject: `trade_alert:${alert.id}`,
      url: `/u/${alert.trader_id}/transactions`,
      data: { symbol: event.symbol, side: event.side, tier: event.tier, share: event.share, quantity: event.quantity },
    });
    await raiseLive(trx, to, { kind: "trade_alert", data: event });
    return to;
  });
}

/** What every recipient sees: never a sum of money, and the quantity only when the trader shows sizes. */
function alertEvent(alert: AlertRow): LiveEventMap["trade_alert"] {
  return {
    alert_id: alert.id,
    trader_id: alert.trader_id,
    symbol: alert.symbol,
    side: alert.side,
    tier: alert.tier,
    share: alert.share,
    quantity: alert.hide_sizes === false && alert.quantity !== null ? Number(alert.quantity) : null,
    traded_at: new Date(alert.traded_at).toISOString(),
    trader_name: displayName(alert),
  };
}

/** An alert on a club's page: the alert as subscribers get it (with who made the trade). */
export type ClubAlert = LiveEventMap["trade_alert"];

/** Alerts a club page shows at most. */
export const CLUB_ALERTS_SHOWN = 30;

/**
 * A club's stream of its members' live trade alerts (issue 34 point 4, DECISIONS 216): the latest
 * alerts of its active members who share trades live, each only once it has been sent to the
 * trader's subscribers (so never before the delay) and recorded since the trader last opted in,
 * shaped as subscribers get them (no sum of money; the quantity only when sizes are shown now),
 * and none from a trader the viewer blocked or who blocked the viewer. The route checks that the
 * viewer is an active member.
 */
export async function clubAlerts(clubId: number, viewerId: number, now = new Date()): Promise<ClubAlert[]> {
  const db = await getDb();
  const rows = await sql<AlertRow>`
    select a.id::text, a.trader_id, a.symbol, a.side, a.traded_at, a.deliver_at, a.fanned_out_at, a.tier, a.share,
      s.enabled, s.delay, s.hide_sizes, u.time_zone, t.quantity, u.first_name, u.last_name, u.name, u.username,
      greatest(a.deliver_at, ${deliverAt(sql`a.traded_at`, sql`s.delay`, sql`u.time_zone`)}) as due
    from club_members m
    join trade_alert_settings s on s.user_id = m.user_id and s.enabled and s.since is not null
    join users u on u.id = m.user_id
    join trade_alerts a on a.trader_id = m.user_id and a.created_at >= s.since and a.fanned_out_at is not null
    left join trades t on t.id = a.trade_id
    where m.club_id = ${clubId} and m.status = 'active'
      and greatest(a.deliver_at, ${deliverAt(sql`a.traded_at`, sql`s.delay`, sql`u.time_zone`)}) <= ${now}
      and not exists (select 1 from blocks b where (b.blocker_id = m.user_id and b.blocked_id = ${viewerId})
                                            or (b.blocker_id = ${viewerId} and b.blocked_id = m.user_id))
    order by a.traded_at desc, a.id desc
    limit ${CLUB_ALERTS_SHOWN}`.execute(db);
  return rows.rows.map(alertEvent);
}

/**
 * The scheduled sync (`trade-alert-sync`, on pg-boss's clock once per cluster): each wallet and
 * exchange account of a trader who shares trades live, not imported for SYNC_MIN_MINUTES and with
 * no import running, is imported again (reason "sync": no grade is re-made, and the trader is told
 * only when trades were added). At most SYNC_MAX_ACCOUNTS per run, the longest waiting first.
 */
export async function tradeAlertSyncJob(): Promise<number> {
  const db = await getDb();
  const due = await db
    .selectFrom("linked_accounts as la")
    .innerJoin("trade_alert_settings as s", "s.user_id", "la.user_id")
    .select(["la.id", "la.user_id"])
    .where("s.enabled", "=", true)
    .where("la.kind", "in", [...SYNC_KINDS])
    .where("la.status", "in", ["active", "error"])
    .where((eb) =>
      eb.or([
        eb("la.last_imported_at", "is", null),
        eb("la.last_imported_at", "<", sql<Date>`now() - make_interval(mins => ${SYNC_MIN_MINUTES})`),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("imports")
            .select("imports.id")
            .whereRef("imports.linked_account_id", "=", "la.id")
            .where("imports.state", "in", RUNNING),
        ),
      ),
    )
    .orderBy(sql`la.last_imported_at nulls first`)
    .orderBy("la.id")
    .limit(SYNC_MAX_ACCOUNTS)
    .execute();
  const byUser = new Map<number, number[]>();
  for (const a of due) byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), a.id]);
  for (const [userId, ids] of byUser) await startImports(userId, ids, "sync", false);
  if (due.length) log("info", "trade alert sync", { accounts: due.length });
  return due.length;
}

/**
 * How long a delivery record is kept. It exists so a retried batch tells nobody twice; a batch's
 * retries are over within minutes and pg-boss forgets jobs after 7 days, so 30 days is ample.
 */
export const DELIVERIES_KEPT_DAYS = 30;
/** Rows per delete, so no statement holds the table long; a run stops after PRUNE_MAX_BATCHES. */
export const PRUNE_BATCH = 5_000;
const PRUNE_MAX_BATCHES = 200;

/**
 * The scheduled `trade-alert-prune` (nightly, once per cluster): deletes delivery records older
 * than DELIVERIES_KEPT_DAYS, PRUNE_BATCH at a time, each batch its own statement, up to a million
 * rows a run (the rest wait for the next night). The alerts themselves stay (a club's page lists
 * them). Returns how many were deleted.
 */
export async function pruneTradeAlertDeliveries(now = new Date(), batch = PRUNE_BATCH): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - DELIVERIES_KEPT_DAYS * 86_400_000);
  let total = 0;
  for (let i = 0; i < PRUNE_MAX_BATCHES; i++) {
    const deleted = await db
      .deleteFrom("trade_alert_deliveries")
      .where(
        sql<boolean>`(alert_id, user_id) in (
          select alert_id, user_id from trade_alert_deliveries where created_at < ${cutoff} limit ${batch})`,
      )
      .executeTakeFirst();
    const n = Number(deleted.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  if (total) log("info", "trade alert deliveries pruned", { rows: total });
  return total;
}

/** The queues' handlers (server.ts); the jobs' own clock is the process's. */
export const tradeAlertJobHandlers = {
  "trade-alert": async (data: { alertId: string }) => {
    await tradeAlertJob(data);
  },
  "trade-alert-deliver": async (data: { alertId: string; userIds: number[]; audience?: AlertAudience }) => {
    await deliverTradeAlert(data);
  },
  "trade-alert-sync": async () => {
    await tradeAlertSyncJob();
  },
  "trade-alert-prune": async () => {
    await pruneTradeAlertDeliveries();
  },
};

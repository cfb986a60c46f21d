import { sql, type Kysely } from "kysely";

// The market leaderboard's totals without counting it (docs/DECISIONS.md 145): every change to
// market_leaderboard adds a +1 / -1 row for its tier here, in the changing transaction, and never
// updates one, so concurrent grades take no shared lock. A page's total is the sum of its tier's
// rows; compactLeaderboardCounts (market.server.ts) folds them into one row per tier now and then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("market_leaderboard_counts")
    .addColumn("tier", "text")
    .addColumn("n", "integer", (c) => c.notNull())
    .execute();
  await sql`create index market_leaderboard_counts_tier on market_leaderboard_counts (tier)`.execute(db);
  await sql`
    create function market_leaderboard_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.tier is not distinct from old.tier then
        return null;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        insert into market_leaderboard_counts (tier, n) values (old.tier, -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into market_leaderboard_counts (tier, n) values (new.tier, 1);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger market_leaderboard_count after insert or delete or update of tier on market_leaderboard
    for each row execute function market_leaderboard_count()`.execute(db);
  // A truncate would leave the sums behind: it empties them too.
  await sql`
    create function market_leaderboard_count_truncate() returns trigger language plpgsql as $$
    begin
      truncate market_leaderboard_counts;
      return null;
    end $$`.execute(db);
  await sql`create trigger market_leaderboard_count_truncate after truncate on market_leaderboard
    for each statement execute function market_leaderboard_count_truncate()`.execute(db);
  await sql`insert into market_leaderboard_counts (tier, n) select tier, count(*) from market_leaderboard group by tier`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists market_leaderboard_count_truncate on market_leaderboard`.execute(db);
  await sql`drop trigger if exists market_leaderboard_count on market_leaderboard`.execute(db);
  await sql`drop function if exists market_leaderboard_count_truncate()`.execute(db);
  await sql`drop function if exists market_leaderboard_count()`.execute(db);
  await db.schema.dropTable("market_leaderboard_counts").execute();
}

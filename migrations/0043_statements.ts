import { sql, type Kysely } from "kysely";

// Statement files (issue 33, DECISIONS 198): an uploaded statement is a linked account of kind
// "statement", and a grade made from statement accounts only is self-reported: marked on the
// evaluation, never on the market leaderboard (the trigger below) and never in the grade log.
// Written out here: migrations never import app code (kinds-in-database test).
const KINDS = ["plaid", "evm", "solana", "binance", "ibkr", "statement"];
const number = (path: string) =>
  sql.raw(`case when jsonb_typeof(e.result #> '{${path}}') = 'number' then (e.result #>> '{${path}}')::float8 end`);

async function leaderboardSync(db: Kysely<any>, selfReported: boolean) {
  // 0015's function, with one more condition when selfReported: a self-reported grade has no row.
  const condition = selfReported ? sql`and not e.self_reported` : sql``;
  await sql`
    create or replace function market_leaderboard_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.current_evaluation_id is not distinct from old.current_evaluation_id then
        update market_leaderboard set followers_count = new.followers_count where user_id = new.id;
        return null;
      end if;
      delete from market_leaderboard where user_id = new.id;
      insert into market_leaderboard (user_id, evaluation_id, tier, score, twr, max_drawdown, stars, followers_count)
        select new.id, e.id, e.tier, e.score, ${number("metrics,twr")}, ${number("metrics,maxDrawdown")}, ${number("stars,overall")}, new.followers_count
        from evaluations e where e.id = new.current_evaluation_id and e.score is not null ${condition};
      return null;
    end $$`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in (${sql.join(KINDS.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
  await db.schema
    .alterTable("evaluations")
    .addColumn("self_reported", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await leaderboardSync(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await leaderboardSync(db, false);
  await sql`delete from linked_accounts where kind = 'statement'`.execute(db);
  await db.schema.alterTable("evaluations").dropColumn("self_reported").execute();
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in ('plaid', 'evm', 'solana', 'binance', 'ibkr'))`.execute(
    db,
  );
}

import { sql, type Kysely } from "kysely";

// Speed at 100,000 traders (docs/DECISIONS.md 91–93).
// - market_leaderboard: one row per trader whose current grade has a score, with the figures the
//   market leaderboard sorts on, kept by a trigger on users in the transaction that changes the
//   current grade or the follower count; an index per sort and direction (ties by user id
//   ascending, as the page orders them). Its score index is also the distribution percentiles
//   are counted from.
// - name-prefix indexes for trader search, so exact and prefix matches come from btrees and the
//   trigram index (now GIN) is only asked to fill up a page.
const SEARCH_EXPR = sql`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;
const number = (path: string) =>
  sql.raw(`case when jsonb_typeof(e.result #> '{${path}}') = 'number' then (e.result #>> '{${path}}')::float8 end`);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("market_leaderboard")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("evaluation_id", "integer", (c) => c.notNull().references("evaluations.id").onDelete("cascade"))
    .addColumn("tier", "text")
    .addColumn("score", "double precision", (c) => c.notNull())
    .addColumn("twr", "double precision")
    .addColumn("max_drawdown", "double precision")
    .addColumn("stars", "double precision")
    .addColumn("followers_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index market_leaderboard_evaluation on market_leaderboard (evaluation_id)`.execute(db);
  for (const [name, column, nulls] of [
    ["score", "score", ""],
    ["twr", "twr", " nulls last"],
    ["drawdown", "max_drawdown", " nulls last"],
    ["followers", "followers_count", ""],
  ] as const) {
    await sql
      .raw(`create index market_leaderboard_${name}_asc on market_leaderboard (${column} asc${nulls}, user_id)`)
      .execute(db);
    await sql
      .raw(`create index market_leaderboard_${name}_desc on market_leaderboard (${column} desc${nulls}, user_id)`)
      .execute(db);
  }

  // One statement for a user's row, from the user's current evaluation (none, or no score: no row).
  await sql`
    create function market_leaderboard_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.current_evaluation_id is not distinct from old.current_evaluation_id then
        update market_leaderboard set followers_count = new.followers_count where user_id = new.id;
        return null;
      end if;
      delete from market_leaderboard where user_id = new.id;
      insert into market_leaderboard (user_id, evaluation_id, tier, score, twr, max_drawdown, stars, followers_count)
        select new.id, e.id, e.tier, e.score, ${number("metrics,twr")}, ${number("metrics,maxDrawdown")}, ${number("stars,overall")}, new.followers_count
        from evaluations e where e.id = new.current_evaluation_id and e.score is not null;
      return null;
    end $$`.execute(db);
  await sql`create trigger market_leaderboard_sync after insert or update of current_evaluation_id, followers_count on users
    for each row execute function market_leaderboard_sync()`.execute(db);
  await sql`insert into market_leaderboard (user_id, evaluation_id, tier, score, twr, max_drawdown, stars, followers_count)
    select u.id, e.id, e.tier, e.score, ${number("metrics,twr")}, ${number("metrics,maxDrawdown")}, ${number("stars,overall")}, u.followers_count
    from users u join evaluations e on e.id = u.current_evaluation_id where e.score is not null`.execute(db);

  // Trader search: names by prefix (the same expressions as search.server.ts).
  await sql`create index users_first_name_pattern on users (lower(first_name) text_pattern_ops)`.execute(db);
  await sql`create index users_last_name_pattern on users (lower(last_name) text_pattern_ops)`.execute(db);
  await sql`create index users_name_pattern on users (lower(name) text_pattern_ops)`.execute(db);
  // Similarity matches listed by GIN, the first 200 ranked (DECISIONS 91): the GiST KNN index of
  // 0006 visited most of its tree for a typo or a common inner word at 100,000 users.
  await sql`drop index if exists users_search_trgm`.execute(db);
  await sql`create index users_search_gin on users using gin ((${SEARCH_EXPR}) gin_trgm_ops)`.execute(db);
  await sql`create index users_full_name_pattern on users (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) text_pattern_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    "users_search_gin",
    "users_first_name_pattern",
    "users_last_name_pattern",
    "users_name_pattern",
    "users_full_name_pattern",
  ]) {
    await sql.raw(`drop index if exists ${index}`).execute(db);
  }
  await sql`create index users_search_trgm on users using gist ((${SEARCH_EXPR}) gist_trgm_ops(siglen = 64))`.execute(
    db,
  );
  await sql`drop trigger if exists market_leaderboard_sync on users`.execute(db);
  await sql`drop function if exists market_leaderboard_sync()`.execute(db);
  await db.schema.dropTable("market_leaderboard").execute();
}

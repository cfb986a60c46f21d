import { sql, type Kysely } from "kysely";

// Trader search's similarity fill from a dictionary of name words (docs/DECISIONS.md 138): the
// words of every user's username and names (split at spaces, underscores, dots, hyphens and
// digits), each word once in search_words with a trigram index, and which users have it in
// user_search_words. A typo is matched against a few thousand short words instead of 100,000
// long texts; kept by a trigger on users in the transaction that changes a name.
const WORDS = (row: string) =>
  sql.raw(
    `select distinct w from regexp_split_to_table(lower(coalesce(${row}.username, '') || ' ' || coalesce(${row}.first_name, '') || ' ' || coalesce(${row}.last_name, '') || ' ' || coalesce(${row}.name, '')), '[[:space:]_.0-9-]+') w where length(w) >= 2`,
  );

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table search_words (word text primary key)`.execute(db);
  await sql`create index search_words_trgm on search_words using gin (word gin_trgm_ops)`.execute(db);
  await sql`create table user_search_words (
    word text not null,
    user_id integer not null references users (id) on delete cascade,
    primary key (word, user_id))`.execute(db);
  await sql`create index user_search_words_user on user_search_words (user_id)`.execute(db);
  await sql`
    create function user_search_words_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        if new.username is not distinct from old.username and new.first_name is not distinct from old.first_name
          and new.last_name is not distinct from old.last_name and new.name is not distinct from old.name then
          return null;
        end if;
        delete from user_search_words where user_id = new.id;
      end if;
      insert into user_search_words (word, user_id) select w, new.id from (${WORDS("new")}) x on conflict do nothing;
      insert into search_words (word) select w from (${WORDS("new")}) x on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger user_search_words_sync after insert or update of username, first_name, last_name, name on users
    for each row execute function user_search_words_sync()`.execute(db);
  await sql`insert into user_search_words (word, user_id)
    select x.w, u.id from users u cross join lateral (${WORDS("u")}) x`.execute(db);
  await sql`insert into search_words (word) select distinct word from user_search_words`.execute(db);
  // The trigram index over every user's whole text (0015) is no longer read.
  await sql`drop index if exists users_search_gin`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists users_search_gin on users using gin ((lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))) gin_trgm_ops)`.execute(
    db,
  );
  await sql`drop trigger if exists user_search_words_sync on users`.execute(db);
  await sql`drop function if exists user_search_words_sync()`.execute(db);
  await sql`drop table if exists user_search_words`.execute(db);
  await sql`drop table if exists search_words`.execute(db);
}

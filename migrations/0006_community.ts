import { sql, type Kysely } from "kysely";

// Community: follows (with counters on users), posts and replies, likes, direct messages, blocks,
// reports, and the trigram index behind trader search.
// The search expression is repeated verbatim in app/server/community/search.server.ts (an
// expression index is only used when the query spells the same expression).
const SEARCH_EXPR = sql`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .alterTable("users")
    .addColumn("followers_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("following_count", "integer", (c) => c.notNull().defaultTo(0))
    // Opt-in to list one's trades on /market/trades (amounts still follow show_amounts).
    .addColumn("share_trades", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  // GiST, not GIN: search takes the nearest names by trigram word similarity (ORDER BY … <<-> … LIMIT),
  // which only GiST can answer from the index; work stays bounded however common a name is.
  await sql`create index users_search_trgm on users using gist ((${SEARCH_EXPR}) gist_trgm_ops(siglen = 64))`.execute(
    db,
  );
  // Username prefixes in index order (usernames are stored lower-case).
  await sql`create index users_username_pattern on users (username text_pattern_ops)`.execute(db);

  await db.schema
    .createTable("follows")
    .addColumn("follower_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("followee_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("follows_pk", ["follower_id", "followee_id"])
    .addCheckConstraint("follows_no_self", sql`follower_id <> followee_id`)
    .execute();
  await db.schema.createIndex("follows_followee").on("follows").columns(["followee_id", "created_at"]).execute();

  await db.schema
    .createTable("posts")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("author_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // null for a post; the replied-to post or reply for a reply. root_id is the thread's post.
    .addColumn("parent_id", "bigint", (c) => c.references("posts.id").onDelete("cascade"))
    .addColumn("root_id", "bigint", (c) => c.references("posts.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull().check(sql`char_length(body) between 1 and 1000`))
    // The author's evaluation attached as a card (their grade when they posted).
    .addColumn("evaluation_id", "integer", (c) => c.references("evaluations.id").onDelete("set null"))
    .addColumn("like_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reply_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("report_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hidden_at", "timestamptz")
    .addColumn("deleted_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("posts_thread", sql`(parent_id is null) = (root_id is null)`)
    .execute();
  // Latest feed: top-level visible posts newest first; author pages and the following feed by author.
  await sql`create index posts_latest on posts (id desc) where parent_id is null and hidden_at is null and deleted_at is null`.execute(
    db,
  );
  await sql`create index posts_author_top on posts (author_id, id desc) where parent_id is null`.execute(db);
  await sql`create index posts_author_replies on posts (author_id, id desc) where parent_id is not null`.execute(db);
  await sql`create index posts_parent on posts (parent_id, id)`.execute(db);

  await db.schema
    .createTable("post_likes")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("post_id", "bigint", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("post_likes_pk", ["user_id", "post_id"])
    .execute();
  await db.schema.createIndex("post_likes_post").on("post_likes").column("post_id").execute();

  await db.schema
    .createTable("blocks")
    .addColumn("blocker_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("blocked_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("blocks_pk", ["blocker_id", "blocked_id"])
    .addCheckConstraint("blocks_no_self", sql`blocker_id <> blocked_id`)
    .execute();

  // One conversation per pair of users: user_a < user_b. status: request (waiting for the
  // recipient), accepted, declined.
  await db.schema
    .createTable("conversations")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_a", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_b", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("started_by", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('request', 'accepted', 'declined')`))
    .addColumn("a_last_read_id", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("b_last_read_id", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_message_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("conversations_pair", ["user_a", "user_b"])
    .addCheckConstraint("conversations_order", sql`user_a < user_b`)
    .execute();
  await db.schema.createIndex("conversations_a").on("conversations").columns(["user_a", "last_message_at"]).execute();
  await db.schema.createIndex("conversations_b").on("conversations").columns(["user_b", "last_message_at"]).execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("conversation_id", "integer", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("sender_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull().check(sql`char_length(body) between 1 and 2000`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("messages_conversation").on("messages").columns(["conversation_id", "id"]).execute();

  // Reports for review: one per reporter and target (a post or a user).
  await db.schema
    .createTable("reports")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("reporter_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("post_id", "bigint", (c) => c.references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("reviewed_at", "timestamptz")
    .addCheckConstraint("reports_one_target", sql`(post_id is null) <> (user_id is null)`)
    .execute();
  await sql`create unique index reports_post_once on reports (reporter_id, post_id) where post_id is not null`.execute(
    db,
  );
  await sql`create unique index reports_user_once on reports (reporter_id, user_id) where user_id is not null`.execute(
    db,
  );

  // The leaderboard joins users to their current evaluation; trades by account for "recent trades".
  await sql`create index if not exists trades_account_time on trades (linked_account_id, time desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists trades_account_time`.execute(db);
  await db.schema.dropTable("reports").execute();
  await db.schema.dropTable("messages").execute();
  await db.schema.dropTable("conversations").execute();
  await db.schema.dropTable("blocks").execute();
  await db.schema.dropTable("post_likes").execute();
  await db.schema.dropTable("posts").execute();
  await db.schema.dropTable("follows").execute();
  await sql`drop index if exists users_username_pattern`.execute(db);
  await sql`drop index if exists users_search_trgm`.execute(db);
  await db.schema
    .alterTable("users")
    .dropColumn("share_trades")
    .dropColumn("following_count")
    .dropColumn("followers_count")
    .execute();
}

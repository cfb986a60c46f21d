import { sql, type Kysely } from "kysely";

// Trader clubs (issue 34 point 4, DECISIONS 216). A club has one owner; a member row per person
// who joined, asked to join (pending) or was removed (kept so an open club cannot be re-entered
// by someone its moderators put out). A club's posts are community posts with a club id: the
// community feeds and profiles leave them out, the club's feed reads them by (club_id, id).
// Independent of 0049: it touches only its own tables and adds a nullable column to posts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("clubs")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    )
    .addColumn("name", "text", (c) => c.notNull().check(sql`char_length(name) between 3 and 60`))
    .addColumn("description", "text", (c) => c.notNull().check(sql`char_length(description) <= 1000`))
    .addColumn("markets", "text", (c) =>
      c
        .notNull()
        .defaultTo("")
        .check(sql`char_length(markets) <= 200`),
    )
    .addColumn("min_tier", "text", (c) => c.check(sql`min_tier in ('Bronze', 'Silver', 'Gold', 'Master', 'Legend')`))
    .addColumn("join_policy", "text", (c) => c.notNull().check(sql`join_policy in ('open', 'request')`))
    .addColumn("owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("member_count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Names are unique whatever their case.
  await sql`create unique index clubs_name_key on clubs (lower(name))`.execute(db);
  await sql`create index clubs_owner on clubs (owner_id)`.execute(db);
  await db.schema
    .createTable("club_members")
    .addColumn("club_id", "integer", (c) => c.notNull().references("clubs.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) =>
      c
        .notNull()
        .defaultTo("member")
        .check(sql`role in ('owner', 'moderator', 'member')`),
    )
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('active', 'pending', 'removed')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("club_members_pkey", ["club_id", "user_id"])
    .execute();
  await sql`create index club_members_user on club_members (user_id) where status = 'active'`.execute(db);
  await db.schema
    .alterTable("posts")
    .addColumn("club_id", "integer", (c) => c.references("clubs.id").onDelete("cascade"))
    .execute();
  await sql`create index posts_club on posts (club_id, id desc) where club_id is not null and parent_id is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from posts where club_id is not null`.execute(db);
  await db.schema.alterTable("posts").dropColumn("club_id").execute();
  await db.schema.dropTable("club_members").execute();
  await db.schema.dropTable("clubs").execute();
}

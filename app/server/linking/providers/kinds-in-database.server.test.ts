import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { ACCOUNT_KINDS } from "~/lib/vocabulary";

// Migrations never import app code, so the database's list of account kinds is written out in
// them: this test holds it to the vocabulary's (a kind added there needs a migration too).
delete process.env.DATABASE_URL;
process.env.DATA_DIR = "memory://";

const { closeDb, getDb, migrateToLatest } = await import("../../platform/db.server");

afterAll(() => closeDb());

it("lets the database store exactly the vocabulary's account kinds", async () => {
  await migrateToLatest();
  const db = await getDb();
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(c.oid) as def from pg_constraint c
    where c.conrelid = 'linked_accounts'::regclass and c.contype = 'c' and pg_get_constraintdef(c.oid) like '%kind%'`.execute(
    db,
  );
  expect(rows).toHaveLength(1);
  const allowed = [...rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]).sort();
  expect(allowed).toEqual([...ACCOUNT_KINDS].sort());
});

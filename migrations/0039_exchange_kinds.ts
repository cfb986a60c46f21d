import { sql, type Kysely } from "kysely";

// Exchanges linked with a read-only API key (issue 31): one account kind per exchange. The key and
// secret live encrypted in access_token_enc (like Plaid's access token) and the exchange's own
// account id in the fingerprint ("binance:<uid>"), whose unique constraint is the one-account-one-
// user rule. Written out here: migrations never import app code (kinds-in-database test).
const KINDS = ["plaid", "evm", "solana", "binance"];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in (${sql.join(KINDS.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from linked_accounts where kind = 'binance'`.execute(db);
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in ('plaid', 'evm', 'solana'))`.execute(
    db,
  );
}

import { sql, type Kysely } from "kysely";

// OKX and Bybit linked with a read-only API key (issue 31; DECISIONS 203, 204) join the other
// exchanges as account kinds. Written out here: migrations never import app code (kinds-in-database test).
const BEFORE = ["plaid", "evm", "solana", "binance", "ibkr", "statement", "kraken", "coinbase"];
const KINDS = [...BEFORE, "okx", "bybit"];

async function allow(db: Kysely<any>, kinds: string[]) {
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in (${sql.join(kinds.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await allow(db, KINDS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from linked_accounts where kind in (${sql.join(KINDS.filter((k) => !BEFORE.includes(k)).map((k) => sql.lit(k)))})`.execute(
    db,
  );
  await allow(db, BEFORE);
}

import { sql, type Kysely } from "kysely";

// Interactive Brokers through the Flex Web Service (issue 33, DECISIONS 193): the kind "ibkr" (its
// Flex token and query id encrypted in access_token_enc, the IBKR account id in the fingerprint,
// "ibkr:U1234567"), and futures and forex in the ledger's rows (the shared contract): a trade's
// contract size (quantity × price × multiplier is its cash) and a future's expiry, and the asset
// classes future, forex and cfd. Written out here: migrations never import app code.
const KINDS = ["plaid", "evm", "solana", "binance", "ibkr"];
const CLASSES = ["stock", "etf", "crypto", "option", "future", "forex", "cfd"];

const list = (values: string[]) => sql.join(values.map((v) => sql.lit(v)));

/** The check constraints on trades that name asset_class (0003 let the database name it). */
async function assetClassChecks(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.conname as name from pg_constraint c
    where c.conrelid = 'trades'::regclass and c.contype = 'c' and pg_get_constraintdef(c.oid) like '%asset_class%'`.execute(
    db,
  );
  return rows.map((r) => r.name);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in (${list(KINDS)}))`.execute(
    db,
  );
  for (const name of await assetClassChecks(db))
    await sql`alter table trades drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table trades add constraint trades_asset_class_check check (asset_class in (${list(CLASSES)}))`.execute(
    db,
  );
  await sql`alter table trades add column multiplier numeric not null default 1`.execute(db);
  await sql`alter table trades add column expiry date null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from linked_accounts where kind = 'ibkr'`.execute(db);
  await sql`delete from trades where asset_class in ('future', 'forex', 'cfd')`.execute(db);
  await sql`alter table trades drop column expiry`.execute(db);
  await sql`alter table trades drop column multiplier`.execute(db);
  for (const name of await assetClassChecks(db))
    await sql`alter table trades drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table trades add constraint trades_asset_class_check check (asset_class in ('stock', 'etf', 'crypto', 'option'))`.execute(
    db,
  );
  await sql`alter table linked_accounts drop constraint if exists linked_accounts_kind_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_kind_check check (kind in (${list(KINDS.slice(0, -1))}))`.execute(
    db,
  );
}

import { sql, type Kysely } from "kysely";

// Every currency (issue 32, DECISIONS 181): a base currency per trader, and the currency of each
// stored trade, cash flow, ledger event and price mark. Existing rows are all US dollars (the only
// currency imported before), which the defaults say; a column with a constant default is added
// without rewriting the table. The base currencies are app/lib/currencies.ts's BASE_CURRENCIES,
// spelled out here because a migration imports no app code: a later list is a later migration.
const BASE_CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "CAD",
  "CHF",
  "JPY",
  "AUD",
  "NZD",
  "SEK",
  "NOK",
  "DKK",
  "ISK",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "TRY",
  "ILS",
  "ZAR",
  "BRL",
  "MXN",
  "CNY",
  "HKD",
  "SGD",
  "KRW",
  "INR",
  "IDR",
  "MYR",
  "PHP",
  "THB",
];

const ROW_TABLES = ["trades", "cash_flows", "ledger_events", "price_marks"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("base_currency", "text", (c) =>
      c
        .notNull()
        .defaultTo("USD")
        .check(sql`base_currency in (${sql.join(BASE_CURRENCIES.map((c) => sql.lit(c)))})`),
    )
    .execute();
  // A row's currency as the provider gave it: ISO 4217, or a provider's unofficial code (Plaid's
  // `unofficial_currency_code`, e.g. a crypto asset), kept as it came (upper case) and never dropped.
  for (const table of ROW_TABLES)
    await db.schema
      .alterTable(table)
      .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
      .execute();
  // Every grade counts the rows in other currencies it leaves out (ledger.server.ts,
  // otherCurrencyRows): found through these small partial indexes, not by reading every USD row.
  for (const table of ["trades", "cash_flows", "ledger_events"])
    await sql`create index ${sql.id(`${table}_other_currency`)} on ${sql.table(table)} (linked_account_id) where currency <> 'USD'`.execute(
      db,
    );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["trades", "cash_flows", "ledger_events"])
    await sql`drop index if exists ${sql.id(`${table}_other_currency`)}`.execute(db);
  for (const table of ROW_TABLES) await db.schema.alterTable(table).dropColumn("currency").execute();
  await db.schema.alterTable("users").dropColumn("base_currency").execute();
}

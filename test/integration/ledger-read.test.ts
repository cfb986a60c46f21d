import crypto from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";

// The columnar ledger read (ledger.server.ts) and the COPY import (imports.server.ts) on the
// database of the run: text and numbers come back as they went in, in the digest's order.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/db.server");
const { linkAccount, saveImport } = await import("~/server/imports.server");
const { asJs, buildUserLedger, LEDGER_DIGEST_VERSION } = await import("~/server/ledger.server");
type ImportedTrade = Parameters<typeof saveImport>[1]["trades"][number];

beforeAll(async () => {
  await migrateToLatest();
});

// A zero-padded prefix orders the ids alike in every collation; the rest is what COPY's text
// format and the comma-joined columns must survive.
const awkward = [
  "a,b",
  'q"uote',
  "back\\slash",
  "\\N",
  "tab\tx",
  "nl\nx",
  "cr\rx",
  "ünï",
  "emoji😀",
  "[1]",
  " sp ",
  "",
];
const numbers = [1e-7, 1e21, 0.1 + 0.2, 5e-324, 1 / 3, 2 ** 53 + 2, 123456.789, 100];

function trades(n: number, seed: number): ImportedTrade[] {
  return Array.from({ length: n }, (_, i) => ({
    externalId: `${String(i).padStart(4, "0")}${awkward[(i + seed) % awkward.length]}`,
    time: new Date(Date.UTC(2025, 0, 1) + i * 61_234 + seed),
    symbol: awkward[(i * 5 + seed) % awkward.length] || "SYM",
    assetClass: i % 2 ? "stock" : "crypto",
    side: i % 3 ? "buy" : "sell",
    quantity: numbers[i % numbers.length]!,
    price: numbers[(i + 3) % numbers.length]!,
    fee: i % 4 ? 0 : numbers[(i + 5) % numbers.length]!,
  }));
}

describe("the columnar ledger read", () => {
  it("gives every trade of every account as stored, in the digest's order, with the digest of its lines", async () => {
    const db = await getDb();
    const user = await db
      .insertInto("users")
      .values({ email: `read-${Date.now()}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (const label of ["first", "second", "empty"]) {
      const link = await linkAccount({
        userId: user.id,
        kind: "plaid",
        fingerprint: `plaid:read:${user.id}:${label}`,
        label,
      });
      if (!link.ok) throw new Error("link");
      ids.push(link.id);
    }
    const batches = [trades(300, 1), trades(200, 7)];
    // Two accounts' trades in one transaction, as a job's part stores them.
    await db.transaction().execute(async (trx) => {
      for (let k = 0; k < 2; k++)
        await saveImport(ids[k]!, { trades: batches[k]!, cashFlows: [], marks: [], payloads: [] }, trx);
    });
    const asOf = new Date(Date.UTC(2025, 0, 1) + 250 * 61_234);

    const { ledger, digest } = await buildUserLedger(user.id, asOf);

    const expected = batches.flatMap((batch, k) =>
      batch
        .filter((t) => t.time <= asOf)
        .sort((a, b) => (a.externalId < b.externalId ? -1 : 1))
        .map((t) => ({
          id: `${ids[k]}:${t.externalId}`,
          account: String(ids[k]),
          time: t.time.toISOString(),
          symbol: t.symbol,
          assetClass: t.assetClass,
          side: t.side,
          quantity: t.quantity,
          price: t.price,
          fee: t.fee,
        })),
    );
    expect(ledger.trades).toHaveLength(250 + 200);
    expect(ledger.trades).toEqual(expected);
    const lines = expected.map(
      (t) =>
        `T|${t.account}|${t.id.slice(t.account.length + 1)}|${t.time}|${t.symbol}|${t.assetClass}|${t.side}|${t.quantity}|${t.price}|${t.fee}\n`,
    );
    const hash = crypto.createHash("sha256").update(`${LEDGER_DIGEST_VERSION}\n${lines.join("")}`);
    expect(digest).toBe(hash.digest("hex"));
  });

  it("writes a float8 as JavaScript does, from the text PostgreSQL gives for it", async () => {
    const db = await getDb();
    const { rows } = await sql<{ x: string }>`
      select (random() * 10 ^ (floor(random() * 30) - 10))::float8::text as x from generate_series(1, 20000)
      union all select unnest(array['-0', '1e-07', '1e+21', 'NaN', 'Infinity', '-Infinity', '5e-324', '-1.5'])::float8::text`.execute(
      db,
    );
    const differing = rows.filter(({ x }) => asJs(x) !== `${parseFloat(x)}`);
    expect(differing).toEqual([]);
    expect(rows.map((r) => asJs(r.x))).toContain("0");
    expect(rows.map((r) => asJs(r.x))).toContain("1e-7");
  });
});

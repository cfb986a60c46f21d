import crypto from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";

// The columnar ledger read (ledger.server.ts) and the COPY import (imports.server.ts) on the
// database of the run: text and numbers come back as they went in, in the digest's order.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { linkAccount, saveImport } = await import("~/server/linking/imports.server");
const { buildUserLedger, LEDGER_DIGEST_VERSION, SNAPSHOT_REWRITE_ROWS } = await import("~/server/grades/ledger.server");
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

async function userWithAccount(label: string) {
  const db = await getDb();
  const user = await db
    .insertInto("users")
    .values({ email: `read-${label}-${Date.now()}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await linkAccount({
    userId: user.id,
    kind: "plaid",
    fingerprint: `plaid:read:${user.id}:${label}`,
    label,
  });
  if (!link.ok) throw new Error("link");
  return { userId: user.id, accountId: link.id };
}

type ReadTrade = {
  id: string;
  account: string;
  time: string;
  symbol: string;
  assetClass: string;
  side: string;
  quantity: number;
  price: number;
  fee: number | undefined;
};

/**
 * The history digest as docs/DECISIONS.md 141 defines it, written independently: per account (by
 * id), its count and four 32-bit sums of its lines' SHA-256 (little-endian words).
 */
function expectedDigest(ledgerTrades: ReadTrade[], after = ""): string {
  const byAccount = new Map<string, ReadTrade[]>();
  for (const t of ledgerTrades) byAccount.set(t.account, [...(byAccount.get(t.account) ?? []), t]);
  let text = `${LEDGER_DIGEST_VERSION}\n`;
  for (const account of [...byAccount.keys()].sort((a, b) => Number(a) - Number(b))) {
    const lanes = [0, 0, 0, 0];
    for (const t of byAccount.get(account)!) {
      const line = `T|${t.account}|${t.id.slice(t.account.length + 1)}|${t.time}|${t.symbol}|${t.assetClass}|${t.side}|${t.quantity}|${t.price}|${t.fee}\n`;
      const h = crypto.createHash("sha256").update(line).digest();
      for (let i = 0; i < 4; i++) lanes[i] = (lanes[i]! + h.readUInt32LE(i * 4)) % 2 ** 32;
    }
    text += `A|${account}|${byAccount.get(account)!.length}|${lanes.map((x) => x.toString(16).padStart(8, "0")).join("")}\n`;
  }
  return crypto.createHash("sha256").update(text).update(after).digest("hex");
}

describe("the columnar ledger read", () => {
  it("gives every trade of every account as stored, in time order, with the digest of its lines", async () => {
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
        .sort((a, b) => a.time.getTime() - b.time.getTime())
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
    expect(digest).toBe(expectedDigest(expected));
  });

  it("reads a snapshot and the trades after it, and gives what a read of every row gives", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("snap");
    const first = trades(120, 3);
    await saveImport(accountId, { trades: first, cashFlows: [], marks: [], payloads: [] });
    const asOf = new Date(Date.UTC(2030, 0, 1));
    const one = await buildUserLedger(userId, asOf);
    expect(one.ledger.trades).toHaveLength(120);
    const snapshot = () =>
      db
        .selectFrom("trade_snapshots")
        .select(["n", "through_id"])
        .where("linked_account_id", "=", accountId)
        .executeTakeFirst();
    const made = await snapshot();
    expect(made?.n).toBe(120);

    // New trades, and one dated after asOf: read after the snapshot, which stays as it was.
    const later = trades(30, 11).map((t) => ({ ...t, externalId: `later-${t.externalId}` }));
    later[0] = { ...later[0]!, time: new Date(Date.UTC(2031, 0, 1)) };
    await saveImport(accountId, { trades: later, cashFlows: [], marks: [], payloads: [] });
    const two = await buildUserLedger(userId, asOf);
    expect(await snapshot()).toEqual(made);
    expect(two.ledger.trades).toHaveLength(149);
    expect(two.digest).not.toBe(one.digest);
    const bySet = (l: typeof two.ledger) => [...l.trades].sort((a, b) => (a.id < b.id ? -1 : 1));
    const expected = [...first, ...later.slice(1)].map((t) => ({
      id: `${accountId}:${t.externalId}`,
      account: String(accountId),
      time: t.time.toISOString(),
      symbol: t.symbol,
      assetClass: t.assetClass,
      side: t.side,
      quantity: t.quantity,
      price: t.price,
      fee: t.fee,
    }));
    expect(bySet(two.ledger)).toEqual([...expected].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(two.digest).toBe(expectedDigest(expected));

    // The same rows read without the snapshot give the same ledger and digest.
    await db.deleteFrom("trade_snapshots").where("linked_account_id", "=", accountId).execute();
    const fresh = await buildUserLedger(userId, asOf);
    expect(bySet(fresh.ledger)).toEqual(bySet(two.ledger));
    expect(fresh.digest).toBe(two.digest);
    expect((await snapshot())?.n).toBe(150);

    // A backfill of SNAPSHOT_REWRITE_ROWS trades dated before the snapshot's: taken into it, in
    // time order, and read from it as a read of every row gives.
    const backfill = trades(SNAPSHOT_REWRITE_ROWS, 2).map((t) => ({
      ...t,
      externalId: `back-${t.externalId}`,
      time: new Date(t.time.getTime() - 86_400_000),
    }));
    await saveImport(accountId, { trades: backfill, cashFlows: [], marks: [], payloads: [] });
    const filled = await buildUserLedger(userId, asOf);
    expect((await snapshot())?.n).toBe(150 + SNAPSHOT_REWRITE_ROWS);
    const fromSnapshot = await buildUserLedger(userId, asOf);
    const times = fromSnapshot.ledger.trades.map((t) => t.time);
    expect(times).toEqual([...times].sort());
    expect(bySet(fromSnapshot.ledger)).toEqual(bySet(filled.ledger));
    expect(fromSnapshot.digest).toBe(filled.digest);
    await db.deleteFrom("trade_snapshots").where("linked_account_id", "=", accountId).execute();
    expect((await buildUserLedger(userId, asOf)).digest).toBe(filled.digest);

    // Once asOf passes the late trade, it is in the ledger and the digest changes.
    const after = await buildUserLedger(userId, new Date(Date.UTC(2032, 0, 1)));
    expect(after.ledger.trades).toHaveLength(150 + SNAPSHOT_REWRITE_ROWS);
    expect(after.digest).not.toBe(fresh.digest);
  });

  it("reads a snapshot of many megabytes, which comes in parts, as a read of every row gives it", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("big");
    const many = trades(30_000, 5).map((t, i) => ({
      ...t,
      externalId: `${String(i).padStart(6, "0")}${t.externalId}`,
    }));
    await saveImport(accountId, { trades: many, cashFlows: [], marks: [], payloads: [] });
    const asOf = new Date(Date.UTC(2030, 0, 1));
    const fresh = await buildUserLedger(userId, asOf);
    const { size } = await db
      .selectFrom("trade_snapshots")
      .select(sql<number>`length(body)`.as("size"))
      .where("linked_account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    expect(size).toBeGreaterThan(2 << 20);
    const read = await buildUserLedger(userId, asOf);
    expect(read.digest).toBe(fresh.digest);
    expect(read.ledger.trades).toEqual(fresh.ledger.trades);
    expect(read.snapshot?.n).toBe(30_000);
  });

  it("makes the snapshot anew when it does not add up, and drops it when trades change", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("stale");
    await saveImport(accountId, { trades: trades(50, 5), cashFlows: [], marks: [], payloads: [] });
    const asOf = new Date(Date.UTC(2030, 0, 1));
    await buildUserLedger(userId, asOf);
    // As if a transaction with lower ids than the snapshot's last had committed after it: the
    // snapshot claims ids up to beyond the next trade's, so that trade is not "after" it.
    await db
      .updateTable("trade_snapshots")
      .set({ through_id: sql`through_id + 1000` })
      .where("linked_account_id", "=", accountId)
      .execute();
    const late = { ...trades(1, 9)[0]!, externalId: "late" };
    await saveImport(accountId, { trades: [late], cashFlows: [], marks: [], payloads: [] });
    const again = await buildUserLedger(userId, asOf);
    expect(again.ledger.trades).toHaveLength(51);
    expect(again.ledger.trades.map((t) => t.id)).toContain(`${accountId}:late`);
    await db.deleteFrom("trade_snapshots").where("linked_account_id", "=", accountId).execute();
    const right = await buildUserLedger(userId, asOf);
    expect(again.digest).toBe(right.digest);
    expect(
      (await db.selectFrom("trade_snapshots").select("n").where("linked_account_id", "=", accountId).executeTakeFirst())
        ?.n,
    ).toBe(51);

    // An update or a delete of trades drops the account's snapshot in its statement.
    await db
      .updateTable("trades")
      .set({ price: 1 })
      .where("linked_account_id", "=", accountId)
      .where("external_id", "=", trades(50, 5)[0]!.externalId)
      .execute();
    expect(
      await db.selectFrom("trade_snapshots").select("n").where("linked_account_id", "=", accountId).executeTakeFirst(),
    ).toBeUndefined();
    const changed = await buildUserLedger(userId, asOf);
    expect(changed.digest).not.toBe(right.digest);
    await db
      .deleteFrom("trades")
      .where("linked_account_id", "=", accountId)
      .where("external_id", "=", trades(50, 5)[1]!.externalId)
      .execute();
    expect(
      await db.selectFrom("trade_snapshots").select("n").where("linked_account_id", "=", accountId).executeTakeFirst(),
    ).toBeUndefined();
    expect((await buildUserLedger(userId, asOf)).ledger.trades).toHaveLength(50);
  });

  it("carries the trader's time zone into the ledger and its digest, on both paths; UTC adds nothing", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("zone");
    await saveImport(accountId, { trades: trades(20, 3), cashFlows: [], marks: [], payloads: [] });
    const asOf = new Date(Date.UTC(2025, 0, 2));
    const utc = await buildUserLedger(userId, asOf);
    expect(utc.ledger.timeZone).toBeUndefined();
    await db.updateTable("users").set({ time_zone: "America/New_York" }).where("id", "=", userId).execute();
    const ny = await buildUserLedger(userId, asOf);
    expect(ny.ledger.timeZone).toBe("America/New_York");
    // A new zone is something new: the next grade is made, not answered "nothing new".
    expect(ny.digest).not.toBe(utc.digest);
    expect(ny.ledger.trades).toEqual(utc.ledger.trades);
    // The row-by-row path (another base currency) carries it too.
    await db.updateTable("users").set({ base_currency: "EUR" }).where("id", "=", userId).execute();
    expect((await buildUserLedger(userId, asOf)).ledger.timeZone).toBe("America/New_York");
    await db.updateTable("users").set({ base_currency: "USD", time_zone: "UTC" }).where("id", "=", userId).execute();
    const back = await buildUserLedger(userId, asOf);
    expect(back.ledger.timeZone).toBeUndefined();
    expect(back.digest).toBe(utc.digest);
  });

  it("gives every stored mark the broker as its source and confidence 1, on both paths; the digest is as before", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("marks");
    const marks = [
      { symbol: "AAPL", time: new Date(Date.UTC(2025, 0, 1, 21)), price: 243.85 },
      { symbol: "BTC", time: new Date(Date.UTC(2025, 0, 1, 23, 59)), price: 94_419.76 },
    ];
    await saveImport(accountId, { trades: trades(6, 5), cashFlows: [], marks, payloads: [] });
    const asOf = new Date(Date.UTC(2025, 0, 2));
    const read = await buildUserLedger(userId, asOf);
    const expected = marks.map((m) => ({
      symbol: m.symbol,
      time: m.time.toISOString(),
      price: m.price,
      source: "broker",
      confidence: 1,
    }));
    expect(read.ledger.prices).toEqual(expected);
    // The source and confidence are the same for every stored mark: the mark's digest line is
    // what it was before they were given (a new grade is not made for nothing).
    const lines = marks.map((m) => `P|${accountId}|${m.symbol}|${m.time.toISOString()}|${m.price}\n`).join("");
    expect(read.digest).toBe(expectedDigest(read.ledger.trades as ReadTrade[], lines));
    // The row-by-row path (another base currency) gives them too.
    await db.updateTable("users").set({ base_currency: "EUR" }).where("id", "=", userId).execute();
    expect((await buildUserLedger(userId, asOf)).ledger.prices).toEqual(expected);
  });

  it("stores a fill's confidence; a thin fill takes the row-by-row path with it, a vouched one changes nothing", async () => {
    const db = await getDb();
    const { userId, accountId } = await userWithAccount("thin");
    const asOf = new Date(Date.UTC(2025, 0, 2));
    const base = trades(8, 7);
    // Through COPY straight into trades (a first import) and through the ON CONFLICT path (a page after).
    await saveImport(accountId, {
      trades: base.slice(0, 4).map((t, i) => (i === 1 ? { ...t, confidence: 0.99 } : t)),
      cashFlows: [],
      marks: [],
      payloads: [],
    });
    await saveImport(accountId, {
      trades: base.slice(4).map((t, i) => (i === 0 ? { ...t, confidence: 0.99 } : t)),
      cashFlows: [],
      marks: [],
      payloads: [],
    });
    const stored = await db
      .selectFrom("trades")
      .select(["external_id", "confidence"])
      .where("linked_account_id", "=", accountId)
      .where("confidence", "is not", null)
      .execute();
    expect(stored.map((r) => r.confidence)).toEqual([0.99, 0.99]);
    // Confidence 0.99 grades as a market fill: the dollar path, its digest as if it were absent.
    const vouched = await buildUserLedger(userId, asOf);
    expect(vouched.digest).toBe(expectedDigest(vouched.ledger.trades as ReadTrade[]));
    expect(vouched.ledger.trades.some((t) => "confidence" in t)).toBe(false);
    // A thin fill (below 0.8): every row read one by one, each with the confidence its source said.
    const thin = base[6]!;
    await db
      .updateTable("trades")
      .set({ confidence: 0.5 })
      .where("linked_account_id", "=", accountId)
      .where("external_id", "=", thin.externalId)
      .execute();
    const read = await buildUserLedger(userId, asOf);
    expect(read.digest).not.toBe(vouched.digest);
    const confidences = Object.fromEntries(read.ledger.trades.map((t) => [t.id, t.confidence]));
    expect(confidences[`${accountId}:${thin.externalId}`]).toBe(0.5);
    expect(confidences[`${accountId}:${base[1]!.externalId}`]).toBe(0.99);
    expect(confidences[`${accountId}:${base[0]!.externalId}`]).toBeUndefined();
    expect(read.ledger.trades).toHaveLength(vouched.ledger.trades.length);
    // The thin row named in the digest: another confidence is something new.
    await db
      .updateTable("trades")
      .set({ confidence: 0.3 })
      .where("linked_account_id", "=", accountId)
      .where("external_id", "=", thin.externalId)
      .execute();
    expect((await buildUserLedger(userId, asOf)).digest).not.toBe(read.digest);
  });
});

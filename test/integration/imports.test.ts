import { beforeAll, describe, expect, it } from "vitest";

if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { linkAccount, saveImport, unlinkAccount } = await import("~/server/linking/imports.server");

async function user() {
  const db = await getDb();
  return (
    await db
      .insertInto("users")
      .values({ email: `imp-${Date.now()}-${Math.random()}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

const batch = (n: number, from = 0) => ({
  trades: Array.from({ length: n }, (_, i) => ({
    externalId: `x${from + i}`,
    time: new Date(Date.UTC(2025, 0, 1) + (from + i) * 60_000),
    symbol: "BTC",
    assetClass: "crypto" as const,
    side: "buy" as const,
    quantity: 0.5,
    price: 50_000,
    fee: 1,
  })),
  cashFlows: [{ externalId: "dep", time: new Date(Date.UTC(2024, 11, 31)), amount: 100_000 }],
  marks: [{ symbol: "BTC", time: new Date(Date.UTC(2025, 0, 2)), price: 51_000 }],
  payloads: [{ kind: "test", payload: { n } }],
});

async function tradeCount(linkedAccountId: number): Promise<number> {
  const db = await getDb();
  const n = await db
    .selectFrom("trades")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("linked_account_id", "=", linkedAccountId)
    .executeTakeFirstOrThrow();
  return Number(n.n);
}

beforeAll(async () => {
  await migrateToLatest();
});

describe("saveImport", () => {
  it("adds each trade once however often the same history is imported", async () => {
    const u = await user();
    const link = await linkAccount({ userId: u, kind: "evm", fingerprint: `evm:test:${u}`, label: "Wallet" });
    if (!link.ok) throw new Error("link");
    expect(await saveImport(link.id, batch(30_000))).toEqual({ tradesAdded: 30_000, cashFlowsAdded: 1 });
    expect(await saveImport(link.id, batch(30_000))).toEqual({ tradesAdded: 0, cashFlowsAdded: 0 });
    expect(await saveImport(link.id, batch(10, 29_995))).toEqual({ tradesAdded: 5, cashFlowsAdded: 0 });
    expect(await tradeCount(link.id)).toBe(30_005);
  });

  it("stores an id the batch holds twice once, and new ids beside stored ones", async () => {
    const u = await user();
    const link = await linkAccount({ userId: u, kind: "evm", fingerprint: `evm:test3:${u}`, label: "Wallet" });
    if (!link.ok) throw new Error("link");
    const twice = batch(3);
    twice.trades.push({ ...twice.trades[0]! });
    expect((await saveImport(link.id, twice)).tradesAdded).toBe(3);
    // A page of ids none of which is stored (PostgreSQL copies it straight into trades).
    expect((await saveImport(link.id, batch(5, 100))).tradesAdded).toBe(5);
    // One stored id among new ones: only the new are added.
    expect((await saveImport(link.id, batch(4, 104))).tradesAdded).toBe(3);
    expect(await tradeCount(link.id)).toBe(11);
  });

  it("writes nothing when any row is refused (one transaction)", async () => {
    const u = await user();
    const link = await linkAccount({ userId: u, kind: "evm", fingerprint: `evm:test2:${u}`, label: "Wallet" });
    if (!link.ok) throw new Error("link");
    const bad = batch(100);
    bad.trades[99] = { ...bad.trades[99]!, quantity: -1 };
    await expect(saveImport(link.id, bad)).rejects.toThrow();
    expect(await tradeCount(link.id)).toBe(0);
  });

  it("keeps one account to one user (the 406 rule) and lets only the owner unlink", async () => {
    const a = await user();
    const b = await user();
    const fingerprint = `plaid:ins_1:acct-${a}`;
    expect(await linkAccount({ userId: a, kind: "plaid", fingerprint, label: "Broker" })).toMatchObject({
      ok: true,
      created: true,
    });
    expect(await linkAccount({ userId: a, kind: "plaid", fingerprint, label: "Broker" })).toMatchObject({
      ok: true,
      created: false,
    });
    expect(await linkAccount({ userId: b, kind: "plaid", fingerprint, label: "Broker" })).toEqual({
      ok: false,
      code: 406,
    });
    const db = await getDb();
    const row = await db
      .selectFrom("linked_accounts")
      .select("id")
      .where("fingerprint", "=", fingerprint)
      .executeTakeFirstOrThrow();
    expect(await unlinkAccount(b, row.id)).toBe(false);
    expect(await unlinkAccount(a, row.id)).toBe(true);
  });
});

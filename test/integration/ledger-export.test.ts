import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// In-process against PGlite (or DATABASE_URL's PostgreSQL in CI): the ledger stored with each
// evaluation reproduces its grade through the CLI, score and digest alike.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
// One trader graded automatically many times here: more than the day's default bound.
process.env.AUTO_GRADES_PER_DAY = "1000";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { evaluateUser, currentEvaluation } = await import("~/server/grades/evaluation.server");
const { saveImport, linkAccount } = await import("~/server/linking/imports.server");
const { evaluationLedger, SNAPSHOT_REWRITE_ROWS, storedLedger } = await import("~/server/grades/ledger.server");
const { ledgerDigest, parseLedger } = await import("~/grading");
await (await import("../mocks")).startProviderMocks({ prices: true });
await migrateToLatest();

const root = path.resolve(import.meta.dirname, "../..");

async function gradedUser() {
  const db = await getDb();
  const { id: userId } = await db
    .insertInto("users")
    .values({ email: `ledger-${Date.now()}-${Math.random()}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await linkAccount({
    userId,
    kind: "plaid",
    fingerprint: `plaid:ledger:${userId}`,
    label: "Test brokerage",
  });
  if (!link.ok) throw new Error("link failed");
  const t0 = Date.UTC(2025, 0, 2, 15);
  await saveImport(link.id, {
    trades: Array.from({ length: 12 }, (_, i) => ({
      externalId: `t${i}`,
      time: new Date(t0 + i * 86_400_000 * 7),
      symbol: i % 4 < 2 ? "AAPL" : "MSFT",
      assetClass: "stock" as const,
      side: i % 2 === 0 ? ("buy" as const) : ("sell" as const),
      quantity: 10,
      price: 100 + ((i * 7) % 11),
      fee: 1,
    })),
    cashFlows: [{ externalId: "d1", time: new Date(t0 - 86_400_000), amount: 10_000 }],
    marks: [],
    // A cancel of a trade that is not in the history: the grade leaves it out and says so.
    events: [{ externalId: "x1", time: new Date(t0), kind: "cancel", symbol: "NVDA", quantity: 3, amount: 420 }],
    payloads: [],
  });
  const out = await evaluateUser(userId, "all", async () => {});
  expect(out.code).toBe(200);
  return { userId, evaluationId: (out as { evaluationId: number }).evaluationId };
}

describe("the ledger kept with each evaluation", () => {
  it("is the engine-format ledger with its benchmark, and its digest is the stored grade's", async () => {
    const { userId, evaluationId } = await gradedUser();
    const found = await evaluationLedger(userId);
    expect(found?.evaluationId).toBe(evaluationId);
    const ledger = found!.ledger;
    expect(ledger.trades).toHaveLength(12);
    expect(ledger.benchmark?.symbol).toBe("SPY");
    expect(ledger.asOf).toMatch(/Z$/);
    const parsed = parseLedger(JSON.parse(JSON.stringify(ledger)));
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    expect(ledgerDigest(parsed.ledger)).toBe(found!.ledgerDigest);
    // What the grade left out travels with its ledger, as the stats page and verify record show it.
    // The made-up fills are far from the market's closes, so neither symbol is valued at them.
    expect(found!.dataQuality).toEqual({
      skipped: [{ reason: "cancel without the transaction it cancels", count: 1 }],
      disagreements: [],
      unpriced: ["AAPL", "MSFT"],
    });
    // Another user's evaluation id finds nothing.
    const other = await gradedUser();
    expect(await evaluationLedger(userId, other.evaluationId)).toBeNull();
    expect((await evaluationLedger(other.userId, other.evaluationId))?.evaluationId).toBe(other.evaluationId);
  });

  it("`npm run grade` on the API's answer yields the stored score and digest", async () => {
    const { userId } = await gradedUser();
    const found = await evaluationLedger(userId);
    const stored = await currentEvaluation(userId);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ledger-")), "ledger.json");
    // What GET /api/portal/ledger answers: { data: ledger, meta }.
    writeFileSync(file, JSON.stringify({ data: found!.ledger, meta: { evaluationId: found!.evaluationId } }));
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/grade.ts", file, "--digest"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout;
    const evaluation = JSON.parse(out);
    expect(evaluation.score).toBe(stored!.result.score);
    expect(evaluation.tier).toBe(stored!.result.tier);
    expect(evaluation.engineVersion).toBe(stored!.engineVersion);
    // The digest the CLI prints is the stored grade's.
    expect(JSON.parse(run.stderr.trim())).toEqual({ ledgerDigest: stored!.ledgerDigest });
  });

  it("keeps a large ledger in gzip members that read back as the ledger, with its own numbers", async () => {
    const trades = Array.from({ length: 9_000 }, (_, i) => ({
      id: `1:t${i}`,
      account: "1",
      time: new Date(Date.UTC(2025, 0, 2) + i * 60_000).toISOString(),
      symbol: `S${i % 50}`,
      assetClass: "stock" as const,
      side: i % 2 ? ("sell" as const) : ("buy" as const),
      quantity: 1 + (i % 7),
      // More than ten decimals: the kept numbers are these, not the digest's rounded ones.
      price: 20 + i / 7,
      fee: 0,
    }));
    const ledger = { trades, cashFlows: [], prices: [], events: [] };
    const stored = await storedLedger(ledger);
    expect(stored.text).toBeNull();
    const text = gunzipSync(stored.head).toString("utf8");
    expect(text.length).toBeGreaterThan(1 << 20);
    const back = JSON.parse(text) as typeof ledger;
    expect(back.trades).toEqual(trades);
    expect(stored.digest).toBe(ledgerDigest(ledger));
    expect(ledgerDigest(back)).toBe(stored.digest);
  });
});

describe("the text of a snapshot's trades, written once and shared (DECISIONS 142)", () => {
  const t0 = Date.UTC(2025, 0, 2, 15);
  // Prices of more than ten decimals: the digest's text and the kept one differ.
  const trade = (i: number, at = t0 + i * 3_600_000) => ({
    externalId: `s${i}`,
    time: new Date(at),
    symbol: `S${i % 5}`,
    assetClass: "stock" as const,
    side: i % 3 === 2 ? ("sell" as const) : ("buy" as const),
    quantity: 1 + (i % 4),
    price: 50 + i / 7,
    fee: i % 2 ? 0.5 : 0,
  });
  const batch = (trades: ReturnType<typeof trade>[]) => ({ trades, cashFlows: [], marks: [], payloads: [] });

  it("is kept with the snapshot and shared by later grades, whose ledgers read back with their digests", async () => {
    const db = await getDb();
    const { id: userId } = await db
      .insertInto("users")
      .values({ email: `text-${Date.now()}@example.com`, extra_tries: 20 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const link = await linkAccount({ userId, kind: "plaid", fingerprint: `plaid:text:${userId}`, label: "T" });
    if (!link.ok) throw new Error("link failed");
    await saveImport(link.id, batch(Array.from({ length: 300 }, (_, i) => trade(i))));

    const grade = async () => {
      const out = await evaluateUser(userId, "all", async () => {}, { automatic: true });
      expect(out.code).toBe(200);
      const id = (out as { evaluationId: number }).evaluationId;
      const kept = await db
        .selectFrom("evaluation_ledgers")
        .innerJoin("evaluations", "evaluations.id", "evaluation_ledgers.evaluation_id")
        .select(["ledger_text_id", "ledger", "ledger_digest"])
        .where("evaluation_id", "=", id)
        .executeTakeFirstOrThrow();
      return { id, ...kept };
    };
    // Every ledger kept so far reads back whole, with its own numbers, and its digest is its grade's.
    const readsBack = async (id: number, count: number) => {
      const found = await evaluationLedger(userId, id);
      expect(found!.ledger.trades).toHaveLength(count);
      const parsed = parseLedger(JSON.parse(JSON.stringify(found!.ledger)));
      if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
      expect(ledgerDigest(parsed.ledger)).toBe(found!.ledgerDigest);
      const s7 = found!.ledger.trades.find((t) => t.id === `${link.id}:s7`);
      expect(s7?.price).toBe(50 + 7 / 7);
      const s8 = found!.ledger.trades.find((t) => t.id === `${link.id}:s8`);
      expect(s8?.price).toBe(50 + 8 / 7);
    };
    const texts = async () =>
      (await db.selectFrom("ledger_texts").select("id").where("user_id", "=", userId).orderBy("id").execute()).map(
        (r) => r.id,
      );
    const snapshotTextId = async () =>
      (
        await db
          .selectFrom("trade_snapshots")
          .select("ledger_text_id")
          .where("linked_account_id", "=", link.id)
          .executeTakeFirst()
      )?.ledger_text_id ?? null;

    // The first grade writes the snapshot's text and keeps its ledger around it.
    const first = await grade();
    expect(await texts()).toHaveLength(1);
    const [textId] = await texts();
    expect(first.ledger_text_id).toBe(textId);
    expect(await snapshotTextId()).toBe(textId);
    const digested = await db
      .selectFrom("ledger_texts")
      .select(["rounded", "exact"])
      .where("id", "=", textId!)
      .executeTakeFirstOrThrow();
    expect(digested.rounded).not.toBeNull();
    expect(gunzipSync(digested.exact).toString()).toContain(`"price":${50 + 8 / 7}`);
    expect(gunzipSync(digested.rounded!).toString()).toContain(`"price":${Math.round((50 + 8 / 7) * 1e10) / 1e10}`);
    await readsBack(first.id, 300);

    // A later trade: the next grade writes only it and the rest, around the same text.
    await saveImport(link.id, batch([trade(300, Date.now() - 60_000)]));
    const second = await grade();
    expect(second.ledger_text_id).toBe(textId);
    expect(await texts()).toEqual([textId]);
    expect(second.ledger_digest).not.toBe(first.ledger_digest);
    await readsBack(second.id, 301);
    await readsBack(first.id, 300);

    // A trade earlier than the snapshot's (a backfill) comes before its text: the ledger is written whole.
    await saveImport(link.id, batch([trade(301, t0 - 86_400_000)]));
    const third = await grade();
    expect(third.ledger_text_id).toBeNull();
    await readsBack(third.id, 302);

    // A snapshot taking in a trade dated after the grade's time: that trade is left out, and the
    // ledger is written whole.
    const more = Array.from({ length: SNAPSHOT_REWRITE_ROWS }, (_, k) => trade(303 + k));
    more[more.length - 1] = trade(303 + more.length - 1, Date.now() + 86_400_000);
    await saveImport(link.id, batch(more));
    const fourth = await grade();
    expect(fourth.ledger_text_id).toBeNull();
    expect(await snapshotTextId()).toBeNull();
    await readsBack(fourth.id, 302 + SNAPSHOT_REWRITE_ROWS - 1);

    // A changed trade drops the snapshot; the next is made anew, and its text is a new one.
    await db
      .updateTable("trades")
      .set({ fee: 1 })
      .where("linked_account_id", "=", link.id)
      .where("external_id", "=", "s0")
      .execute();
    expect(await db.selectFrom("trade_snapshots").where("linked_account_id", "=", link.id).execute()).toEqual([]);
    await db
      .deleteFrom("trades")
      .where("linked_account_id", "=", link.id)
      .where("external_id", "=", more[more.length - 1]!.externalId)
      .execute();
    const fifth = await grade();
    const [, newText] = await texts();
    expect(newText).toBeDefined();
    expect(fifth.ledger_text_id).toBe(newText);
    expect(await snapshotTextId()).toBe(newText);
    await readsBack(fifth.id, 302 + SNAPSHOT_REWRITE_ROWS - 1);
    // The ledgers kept before still read back, each with its own text.
    await readsBack(second.id, 301);

    // Deleting the user deletes their texts with their grades.
    await db.deleteFrom("users").where("id", "=", userId).execute();
    expect(await db.selectFrom("ledger_texts").select("id").where("user_id", "=", userId).execute()).toEqual([]);
  });
});

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// In-process against PGlite (or DATABASE_URL's PostgreSQL in CI): the ledger stored with each
// evaluation reproduces its grade through the CLI, score and digest alike.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/db.server");
const { evaluateUser, currentEvaluation } = await import("~/server/evaluation.server");
const { saveImport, linkAccount } = await import("~/server/imports.server");
const { evaluationLedger, storedLedger } = await import("~/server/ledger.server");
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
    expect(found!.dataQuality).toEqual({
      skipped: [{ reason: "cancel without the transaction it cancels", count: 1 }],
      disagreements: [],
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
    const text = gunzipSync(stored.gzip).toString("utf8");
    expect(text.length).toBeGreaterThan(1 << 20);
    const back = JSON.parse(text) as typeof ledger;
    expect(back.trades).toEqual(trades);
    expect(stored.digest).toBe(ledgerDigest(ledger));
    expect(ledgerDigest(back)).toBe(stored.digest);
  });
});

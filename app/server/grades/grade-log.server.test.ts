import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The grade log in process, on an in-memory PGlite: appends chain and sign; editing or deleting a
// past grade in the database, or changing one byte of a record, is detected.
// With DATABASE_URL set (an empty database) the same cases run on PostgreSQL, concurrent appends included.
process.env.DATA_DIR = "memory://";
delete process.env.GRADE_SIGNING_KEY;
// On PostgreSQL a database of its own: other files' tests grade, and this one counts the chain.
if (process.env.DATABASE_URL)
  Object.assign(process.env, await (await import("../../../test/support/server")).ownDatabase());

const { closeDb, getDb, migrateToLatest } = await import("../platform/db.server");
const { appendToGradeLog, auditGradeLog, gradeLogPage, publishedKeys } = await import("./grade-log.server");
const { checkChain, checkEntry } = await import("./grade-verify.server");
const { setEnv } = await import("../platform/env.server");

type Db = Awaited<ReturnType<typeof getDb>>;
type Trx = Parameters<Parameters<ReturnType<Db["transaction"]>["execute"]>[0]>[0];

const result = (twr: number, tier = "Gold") => ({
  engineVersion: "2.0.0",
  asOf: "2024-06-01T00:00:00.000Z",
  tier,
  score: 71.23456789012,
  stars: { overall: 4 },
  metrics: {
    twr,
    mwr: 0.1,
    maxDrawdown: 0.2,
    winRate: 0.5,
    benchmark: { symbol: "SPY", return: 0.08, excess: twr - 0.08, beta: 1, alpha: null },
  },
  curve: [{ date: "2024-01-02", equity: 1, index: 1, drawdown: 0 }],
});

let db: Db;
const users: number[] = [];

async function grade(userId: number, code: string, twr: number) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("evaluations")
      .values({
        user_id: userId,
        engine_version: "2.0.0",
        ledger_digest: "d".repeat(64),
        tier: "Gold",
        score: 71.23456789012,
        percentile: null,
        verification_code: code,
        result: JSON.stringify(result(twr)),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await appendToGradeLog(trx, row.id);
  });
}

/** Runs `tamper` and the audit in a transaction that is rolled back, so each case starts intact. */
async function auditAfter(tamper: (trx: Trx) => Promise<unknown>) {
  let problems: string[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      await tamper(trx);
      problems = (await auditGradeLog(trx)).problems;
      throw new Error("rollback");
    })
    .catch((e: Error) => {
      if (e.message !== "rollback") throw e;
    });
  return problems;
}

beforeAll(async () => {
  await migrateToLatest();
  db = await getDb();
  for (const email of ["a@example.com", "b@example.com"])
    users.push((await db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow()).id);
  await db
    .insertInto("linked_accounts")
    .values({ user_id: users[0]!, kind: "plaid", fingerprint: "f1", label: "Broker" })
    .execute();
  await grade(users[0]!, "GR-AAAA-AAA1", 0.12);
  await grade(users[1]!, "GR-BBBB-BBB1", -0.05);
  await grade(users[0]!, "GR-AAAA-AAA2", 0.15);
  await grade(users[1]!, "GR-BBBB-BBB2", 0.01);
}, 60_000);

afterAll(async () => {
  await closeDb();
});

describe("the grade log", () => {
  it("chains signed records under a pseudonym, with the accounts linked at the time", async () => {
    const page = await gradeLogPage(0);
    expect(page.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(page.head.seq).toBe(4);
    expect(page.entries[0]!.prev_hash).toBe("0".repeat(64));
    for (let i = 1; i < 4; i++) expect(page.entries[i]!.prev_hash).toBe(page.entries[i - 1]!.hash);
    const first = page.entries[0]!.record as Record<string, unknown>;
    expect(first).toMatchObject({
      code: "GR-AAAA-AAA1",
      tier: "Gold",
      stars: 4,
      accounts: { plaid: 1 },
      returns: { twr: 0.12, benchmark: { symbol: "SPY", return: 0.08 } },
      max_drawdown: 0.2,
      win_rate: 0.5,
      data: "demo",
    });
    expect(String(first.trader)).toMatch(/^t_[0-9a-f]{24}$/);
    expect(JSON.stringify(first)).not.toContain("a@example.com");
    expect(page.entries[2]!.record.trader).toBe(first.trader);
    expect(page.entries[1]!.record.trader).not.toBe(first.trader);
    const keys = await publishedKeys();
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", kid: page.entries[0]!.kid });
    expect(checkChain(page.entries, keys)).toMatchObject({ ok: true, checked: 4 });
    expect(await auditGradeLog()).toEqual({ ok: true, checked: 4, problems: [] });
    expect((await gradeLogPage(0, 3)).next).toBe(3);
    expect(await gradeLogPage(3, 3)).toMatchObject({ next: null, entries: [{ seq: 4 }] });
  });

  it("reads GRADE_SIGNING_KEY as a PKCS8 PEM or its base64 DER, and refuses other key types", async () => {
    const crypto = await import("node:crypto");
    const { parseSigningKey, publicJwk } = await import("./grade-verify.server");
    const { privateKey } = crypto.generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const der = privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
    expect(publicJwk(parseSigningKey(pem))).toEqual(publicJwk(privateKey));
    expect(publicJwk(parseSigningKey(der))).toEqual(publicJwk(privateKey));
    const ec = crypto
      .generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    expect(() => parseSigningKey(ec)).toThrow(/Ed25519/);
  });

  it("fails a record or signature with one changed byte", async () => {
    const { entries } = await gradeLogPage(0);
    const keys = await publishedKeys();
    const entry = entries[1]!;
    expect(checkEntry(entry, keys)).toEqual({ ok: true });
    const edited = {
      ...entry,
      record: { ...entry.record, returns: { ...(entry.record.returns as object), twr: 0.05 } },
    };
    expect(checkEntry(edited, keys)).toMatchObject({ ok: false, reason: expect.stringContaining("signature") });
    const sig = entry.signature;
    const flipped = sig.slice(0, 10) + (sig[10] === "A" ? "B" : "A") + sig.slice(11);
    expect(checkEntry({ ...entry, signature: flipped }, keys)).toMatchObject({ ok: false });
    expect(
      checkEntry({ ...entry, hash: entry.hash.replace(/^./, (c) => (c === "0" ? "1" : "0")) }, keys),
    ).toMatchObject({ ok: false, reason: expect.stringContaining("hash") });
    expect(checkChain([entries[0]!, entries[2]!], keys)).toMatchObject({ ok: false, failure: { seq: 3 } });
  });

  it("detects a grade edited in the evaluations table", async () => {
    expect(
      await auditAfter((trx) =>
        trx
          .updateTable("evaluations")
          .set({ tier: "Legend" })
          .where("verification_code", "=", "GR-BBBB-BBB1")
          .execute(),
      ),
    ).toEqual([expect.stringContaining("GR-BBBB-BBB1 differs from its signed record")]);
    expect(
      await auditAfter((trx) =>
        trx
          .updateTable("evaluations")
          .set({ result: JSON.stringify(result(0.99)) })
          .where("verification_code", "=", "GR-AAAA-AAA1")
          .execute(),
      ),
    ).toEqual([expect.stringContaining("GR-AAAA-AAA1 differs")]);
  });

  it("detects a log record edited by one byte, or deleted in the middle or at the end", async () => {
    const edited = await auditAfter((trx) =>
      trx
        .updateTable("grade_log")
        .set({ record: (eb) => eb.fn("replace", [eb.ref("record"), eb.val('"Gold"'), eb.val('"Gole"')]) })
        .where("seq", "=", "2" as never)
        .execute(),
    );
    expect(edited[0]).toMatch(/^entry 2: the signature does not match/);
    const middle = await auditAfter((trx) =>
      trx
        .deleteFrom("grade_log")
        .where("seq", "=", "2" as never)
        .execute(),
    );
    expect(middle[0]).toMatch(/^entry 3: expected seq 2/);
    const tail = await auditAfter((trx) =>
      trx
        .deleteFrom("grade_log")
        .where("seq", "=", "4" as never)
        .execute(),
    );
    expect(tail.some((p) => p.includes("entries were removed"))).toBe(true);
  });

  it("detects a grade deleted from the database, yet stays intact when an account is deleted", async () => {
    const deleted = await auditAfter(async (trx) => {
      await trx.updateTable("users").set({ current_evaluation_id: null }).execute();
      await trx.deleteFrom("evaluations").where("verification_code", "=", "GR-AAAA-AAA2").execute();
    });
    expect(deleted).toEqual([expect.stringContaining("GR-AAAA-AAA2 (entry 3) was deleted")]);
    expect(await auditAfter((trx) => trx.deleteFrom("users").where("id", "=", users[1]!).execute())).toEqual([]);
  });

  it("shows on the verify page whether the stored grade is still the one the record signed", async () => {
    const { gradeVerification } = await import("./verify.server");
    const before = await gradeVerification("GR-BBBB-BBB2");
    expect(before?.log).toMatchObject({ seq: 4, valid: true, accounts: [] });
    // An engine 2 grade: the card's figures, and of those against the market only the two it had.
    expect(before?.figures).toEqual([
      { label: "Time-weighted return", value: "+1.0%" },
      { label: "Money-weighted return", value: "+10.0%" },
      { label: "Benchmark", value: "S&P 500" },
      { label: "Benchmark return", value: "+8.0%" },
      { label: "Excess over the benchmark", value: "\u22127.0%" },
      { label: "Max drawdown", value: "\u221220.0%" },
      { label: "Win rate", value: "50.0%" },
    ]);
    await db
      .updateTable("evaluations")
      .set({ result: JSON.stringify(result(0.5)) })
      .where("verification_code", "=", "GR-BBBB-BBB2")
      .execute();
    try {
      const after = await gradeVerification("GR-BBBB-BBB2");
      expect(after?.log).toMatchObject({ valid: false, problem: "the stored grade differs from its signed record" });
    } finally {
      await db
        .updateTable("evaluations")
        .set({ result: JSON.stringify(result(0.01)) })
        .where("verification_code", "=", "GR-BBBB-BBB2")
        .execute();
    }
    expect((await gradeVerification("GR-BBBB-BBB2"))?.log?.valid).toBe(true);
  });

  it("queues concurrent appends on the head lock: one chain, no fork", async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => grade(users[i % 2]!, `GR-CCCC-CC${String.fromCharCode(65 + i)}2`, 0.01 * i)),
    );
    const audit = await auditGradeLog();
    expect(audit).toMatchObject({ ok: true, checked: 12, problems: [] });
  });

  it("rotates keys: a configured key takes over, the old one stays published with exp, every record still checks", async () => {
    const crypto = await import("node:crypto");
    const pem = crypto.generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    process.env.GRADE_SIGNING_KEY = pem.replace(/\n/g, "\\n");
    setEnv(undefined);
    try {
      await grade(users[0]!, "GR-DDDD-DDD1", 0.2);
      const keys = await publishedKeys();
      expect(keys.keys).toHaveLength(2);
      const [old, current] = keys.keys;
      expect(old!.exp).toBeGreaterThanOrEqual(old!.nbf);
      expect(current!.exp).toBeUndefined();
      const { entries } = await gradeLogPage(0);
      expect(entries[entries.length - 1]!.kid).toBe(current!.kid);
      expect(entries[0]!.kid).toBe(old!.kid);
      expect(checkChain(entries, keys)).toMatchObject({ ok: true, checked: 13 });
      // Without the old key, its records no longer check: it must stay published.
      expect(checkChain(entries, { keys: [current!] })).toMatchObject({
        ok: false,
        failure: { seq: 1, reason: expect.stringContaining("unknown key") },
      });
    } finally {
      delete process.env.GRADE_SIGNING_KEY;
      setEnv(undefined);
    }
  });

  it("keeps a deleted account's records verifiable and the chain whole", async () => {
    const { gradeVerification, loggedOnlyVerification } = await import("./verify.server");
    await db.deleteFrom("users").where("id", "=", users[1]!).execute();
    expect(await gradeVerification("GR-BBBB-BBB1")).toBeNull();
    expect(await loggedOnlyVerification("GR-BBBB-BBB1")).toMatchObject({
      code: "GR-BBBB-BBB1",
      tier: "Gold",
      seq: 2,
      valid: true,
      figures: { twr: "\u22125.0%" },
    });
    expect(await loggedOnlyVerification("GR-ZZZZ-ZZZZ")).toBeNull();
    expect(await auditGradeLog()).toMatchObject({ ok: true, problems: [] });
  });
});

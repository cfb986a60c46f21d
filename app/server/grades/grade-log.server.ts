import crypto, { type KeyObject } from "node:crypto";
import { sql } from "kysely";
import { canonicalJson, type Evaluation } from "~/grading";
import { decryptSecret, encryptSecret } from "../platform/crypto.server";
import { getDb, getReadDb, type DB } from "../platform/db.server";
import type { LinkedAccountKind } from "../platform/db/schema";
import { getEnv } from "../platform/env.server";
import { buildGradeRecord, sha256Hex, type UnlinkedSummary } from "./grade-record.server";
import {
  checkChain,
  entryHash,
  kidOf,
  parseSigningKey,
  publicJwk,
  recordText,
  signText,
  type KeySet,
  type LogEntry,
  type PublishedKey,
} from "./grade-verify.server";
import { log } from "../platform/log.server";

// The append-only public log of grades. Each new evaluation appends, in its own transaction, one
// record signed with the server's Ed25519 key and chained to the one before by hash. Appenders
// lock the one-row head (SELECT … FOR UPDATE), so concurrent servers queue instead of forking.

// ---------------------------------------------------------------------------------------------
// Keys

let configured: { raw: string; kid: string; privateKey: KeyObject; jwk: ReturnType<typeof publicJwk> } | undefined;
const registered = new Set<string>();
const generated = new Map<string, KeyObject>();

function configuredKey() {
  const raw = getEnv().GRADE_SIGNING_KEY;
  if (!raw) return undefined;
  if (configured?.raw !== raw) {
    const privateKey = parseSigningKey(raw);
    const jwk = publicJwk(privateKey);
    configured = { raw, kid: kidOf(jwk.x), privateKey, jwk };
  }
  return configured;
}

/**
 * The key that signs now. GRADE_SIGNING_KEY when set (registered for publication on first use,
 * retiring earlier keys); otherwise the database's generated key, created once under the head
 * lock the caller holds, its private half sealed with ENCRYPTION_KEY so every replica shares it.
 */
async function signingKey(trx: DB): Promise<{ kid: string; privateKey: KeyObject }> {
  const own = configuredKey();
  if (own) {
    if (!registered.has(own.kid)) {
      await trx
        .insertInto("grade_signing_keys")
        .values({ kid: own.kid, public_jwk: JSON.stringify(own.jwk) })
        .onConflict((oc) => oc.column("kid").doNothing())
        .execute();
      // It takes over from older keys only, so a replica still on an older key never retires a newer one.
      const mine = await trx
        .selectFrom("grade_signing_keys")
        .select("not_before")
        .where("kid", "=", own.kid)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable("grade_signing_keys")
        .set({ retired_at: sql`now()` })
        .where("kid", "!=", own.kid)
        .where("retired_at", "is", null)
        .where("not_before", "<", mine.not_before)
        .execute();
      registered.add(own.kid);
    }
    return own;
  }
  const row = await trx
    .selectFrom("grade_signing_keys")
    .select(["kid", "private_sealed"])
    .where("private_sealed", "is not", null)
    .where("retired_at", "is", null)
    .orderBy("not_before", "desc")
    .executeTakeFirst();
  if (row?.private_sealed) {
    let privateKey = generated.get(row.kid);
    if (!privateKey) generated.set(row.kid, (privateKey = parseSigningKey(decryptSecret(row.private_sealed))));
    return { kid: row.kid, privateKey };
  }
  const { privateKey } = crypto.generateKeyPairSync("ed25519");
  const jwk = publicJwk(privateKey);
  const kid = kidOf(jwk.x);
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  await trx
    .insertInto("grade_signing_keys")
    .values({ kid, public_jwk: JSON.stringify(jwk), private_sealed: encryptSecret(pem) })
    .execute();
  await trx
    .updateTable("grade_signing_keys")
    .set({ retired_at: sql`now()` })
    .where("kid", "!=", kid)
    .where("retired_at", "is", null)
    .execute();
  generated.set(kid, privateKey);
  log("info", "generated a grade signing key", { kid });
  return { kid, privateKey };
}

/** /.well-known/grader-keys.json: every key that has signed (or will sign) a record, with its validity. */
export async function publishedKeys(db?: DB): Promise<KeySet> {
  const exec = db ?? (await getDb());
  const rows = await exec
    .selectFrom("grade_signing_keys")
    .select(["kid", "public_jwk", "not_before", "retired_at"])
    .orderBy("not_before")
    .execute();
  // A retired key's exp is its last signature (a replica still on the old key during a rolling
  // deploy may sign after retired_at), so every record it signed stays inside [nbf, exp].
  const lastUse = new Map(
    (
      await exec
        .selectFrom("grade_log")
        .select(["kid", (eb) => eb.fn.max<Date | string>("created_at").as("last")])
        .groupBy("kid")
        .execute()
    ).map((r) => [r.kid, new Date(r.last)]),
  );
  const keys: PublishedKey[] = rows.map((r) => {
    const jwk = JSON.parse(r.public_jwk) as { x: string };
    const key: PublishedKey = {
      kty: "OKP",
      crv: "Ed25519",
      x: jwk.x,
      kid: r.kid,
      alg: "EdDSA",
      use: "sig",
      nbf: Math.floor(new Date(r.not_before).getTime() / 1000),
    };
    if (r.retired_at) {
      const last = lastUse.get(r.kid);
      key.exp = Math.ceil(Math.max(new Date(r.retired_at).getTime(), last?.getTime() ?? 0) / 1000);
    }
    return key;
  });
  // A configured key not yet used is published from now on.
  const own = configuredKey();
  if (own && !keys.some((k) => k.kid === own.kid))
    keys.push({ ...own.jwk, kid: own.kid, alg: "EdDSA", use: "sig", nbf: Math.floor(Date.now() / 1000) });
  return { keys };
}

// ---------------------------------------------------------------------------------------------
// Appending

/** The trader as the log names them: an HMAC of the user id with the log's secret, never the id. */
function pseudonym(secret: string, userId: number): string {
  return `t_${crypto.createHmac("sha256", secret).update(`user:${userId}`).digest("hex").slice(0, 24)}`;
}

/**
 * Appends the evaluation `evaluationId` to the log, inside the transaction that inserted it (so
 * a grade and its record commit together or not at all).
 */
export async function appendToGradeLog(trx: DB, evaluationId: number): Promise<void> {
  const head = await trx
    .selectFrom("grade_log_head")
    .selectAll()
    .where("id", "=", 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const ev = await trx
    .selectFrom("evaluations")
    .select(["id", "user_id", "created_at", "engine_version", "ledger_digest", "verification_code", "result"])
    .where("id", "=", evaluationId)
    .executeTakeFirstOrThrow();
  const [accounts, previous] = await Promise.all([
    trx.selectFrom("linked_accounts").select("kind").where("user_id", "=", ev.user_id).execute(),
    trx
      .selectFrom("evaluations")
      .select("created_at")
      .where("user_id", "=", ev.user_id)
      .where("id", "<", ev.id)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const unlinked: UnlinkedSummary[] = previous
    ? (
        await trx
          .selectFrom("unlinked_accounts")
          .select(["kind", "twr"])
          .where("user_id", "=", ev.user_id)
          .where("unlinked_at", ">", previous.created_at)
          .orderBy("id")
          .execute()
      ).map((u) => ({ kind: u.kind, twr: u.twr }))
    : [];
  const seq = Number(head.seq) + 1;
  const record = buildGradeRecord({
    seq,
    prevHash: head.hash,
    code: ev.verification_code,
    trader: pseudonym(head.pseudonym_key, ev.user_id),
    gradedAt: new Date(ev.created_at).toISOString(),
    engineVersion: ev.engine_version,
    ledgerDigest: ev.ledger_digest,
    result: parseResult(ev.result),
    accountKinds: accounts.map((a) => a.kind as LinkedAccountKind),
    unlinked,
  });
  const text = recordText(record);
  const key = await signingKey(trx);
  const signature = signText(text, key.privateKey);
  const hash = entryHash(text, signature);
  await trx
    .insertInto("grade_log")
    .values({ seq, code: ev.verification_code, prev_hash: head.hash, hash, record: text, signature, kid: key.kid })
    .execute();
  await trx.updateTable("grade_log_head").set({ seq, hash }).where("id", "=", 1).execute();
}

function parseResult(raw: unknown): Evaluation {
  return (typeof raw === "string" ? JSON.parse(raw) : raw) as Evaluation;
}

// ---------------------------------------------------------------------------------------------
// Reading

type LogRow = { seq: string | number; hash: string; prev_hash: string; record: string; signature: string; kid: string };

function toEntry(r: LogRow): LogEntry {
  return {
    seq: Number(r.seq),
    hash: r.hash,
    prev_hash: r.prev_hash,
    record: JSON.parse(r.record),
    signature: r.signature,
    kid: r.kid,
  };
}

export const LOG_PAGE_SIZE = 100;

/**
 * Entries after `after` (the last seq seen), in order, and the seq to ask for next (null at the
 * end). From the read database unless `db` is given: a reader follows the log by polling, and an
 * entry seconds late comes with the next poll.
 */
export async function gradeLogPage(after: number, limit = LOG_PAGE_SIZE, db?: DB) {
  const exec = db ?? (await getReadDb());
  const rows = await exec
    .selectFrom("grade_log")
    .select(["seq", "hash", "prev_hash", "record", "signature", "kid"])
    .where("seq", ">", String(after) as never)
    .orderBy("seq")
    .limit(limit + 1)
    .execute();
  const entries = rows.slice(0, limit).map(toEntry);
  const head = await exec
    .selectFrom("grade_log_head")
    .select(["seq", "hash"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return {
    entries,
    next: rows.length > limit ? entries[entries.length - 1]!.seq : null,
    head: { seq: Number(head.seq), hash: head.hash },
  };
}

/** The log entry of one verification code, or null (grades from before the log have none). */
export async function gradeLogEntry(code: string): Promise<LogEntry | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("grade_log")
    .select(["seq", "hash", "prev_hash", "record", "signature", "kid"])
    .where("code", "=", code)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

export type LogAudit = { ok: boolean; checked: number; problems: string[] };

/**
 * The whole chain from the database: signatures, hashes and links (checkChain), the head row
 * against the last entry (a deleted tail), and every stored evaluation against its record (an
 * edited or deleted grade). Evaluations of deleted accounts are gone; their records remain.
 */
export async function auditGradeLog(db?: DB): Promise<LogAudit> {
  const exec = db ?? (await getDb());
  const keys = await publishedKeys(exec);
  const problems: string[] = [];
  const entries: LogEntry[] = [];
  let after = 0;
  for (;;) {
    const page = await gradeLogPage(after, 1000, exec);
    entries.push(...page.entries);
    if (page.next === null) break;
    after = page.next;
  }
  const chain = checkChain(entries, keys);
  if (!chain.ok) problems.push(`entry ${chain.failure!.seq}: ${chain.failure!.reason}`);
  const head = await exec
    .selectFrom("grade_log_head")
    .select(["seq", "hash"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  const last = entries[entries.length - 1];
  if (Number(head.seq) !== (last?.seq ?? 0) || head.hash !== (last?.hash ?? head.hash))
    problems.push(`the head says seq ${head.seq} but the last entry is ${last?.seq ?? 0}: entries were removed`);
  const byCode = new Map(entries.map((e) => [String(e.record.code), e]));
  const first = entries[0];
  const evaluations = await exec
    .selectFrom("evaluations")
    .leftJoin("evaluations as remade", "remade.id", "evaluations.remade_from")
    .select([
      "evaluations.verification_code",
      "evaluations.tier",
      "evaluations.score",
      "evaluations.engine_version",
      "evaluations.ledger_digest",
      "evaluations.result",
      "evaluations.created_at",
      "remade.verification_code as remade_code",
    ])
    // Self-reported grades are never logged (DECISIONS 198): none is missing from it.
    .where("evaluations.self_reported", "=", false)
    .$if(Boolean(first), (q) => q.where("evaluations.created_at", ">=", new Date(String(first!.record.graded_at))))
    .$if(!first, (q) => q.where(sql<boolean>`false`))
    .execute();
  // A record of a living trader whose evaluation is gone was deleted from the database.
  const secret = (
    await exec.selectFrom("grade_log_head").select("pseudonym_key").where("id", "=", 1).executeTakeFirstOrThrow()
  ).pseudonym_key;
  const living = new Set((await exec.selectFrom("users").select("id").execute()).map((u) => pseudonym(secret, u.id)));
  const stored = new Set(evaluations.map((e) => e.verification_code));
  for (const e of entries)
    if (living.has(String(e.record.trader)) && !stored.has(String(e.record.code)))
      problems.push(`grade ${String(e.record.code)} (entry ${e.seq}) was deleted`);
  for (const ev of evaluations) {
    const entry = byCode.get(ev.verification_code);
    if (!entry) {
      // A grade re-made under a newer engine is logged as the one it re-made was (DECISIONS 168):
      // the demo community's never are.
      if (ev.remade_code && !byCode.has(ev.remade_code)) continue;
      problems.push(`grade ${ev.verification_code} is not in the log`);
      continue;
    }
    const r = entry.record as Record<string, unknown>;
    const result = parseResult(ev.result);
    if (
      r.result_digest !== sha256Hex(canonicalJson(result)) ||
      r.tier !== ev.tier ||
      canonicalJson(r.score) !== canonicalJson(ev.score) ||
      r.engine_version !== ev.engine_version ||
      r.ledger_digest !== ev.ledger_digest
    ) {
      problems.push(`grade ${ev.verification_code} differs from its signed record (entry ${entry.seq})`);
    }
  }
  return { ok: problems.length === 0, checked: chain.checked, problems };
}

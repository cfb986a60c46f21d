import crypto from "node:crypto";
import type { Refusal } from "~/lib/refusal";
import { readStatementFile } from "~/sources/statement/formats";
import { provenanceOf } from "../../grades/evaluation.server";
import { getDb } from "../../platform/db.server";
import { wake } from "../../platform/jobs.server";
import { linkAccount, saveImport } from "../imports.server";
import { countLinkChange, type LimitRefusal } from "../link-limits.server";
import { commitStep, Linked406, startImport } from "../steps.server";
import type { AccountProvider } from "./provider";

// An uploaded statement (issue 33, DECISIONS 198): the rows are read and stored when the file
// arrives, in the upload's transaction; the import that follows has nothing to fetch, and its one
// step hands over to the automatic grade like any provider's last step. Its grade is
// self-reported when the trader has no verified account.

export const statementProvider: AccountProvider<object> = {
  kind: "statement",
  simulator: null,
  async step(row) {
    await commitStep(row, async () => 0, { state: row.regrade ? "grading" : "done", cursor: row.cursor });
  },
};

/** What the file's payload row keeps: the file's digest says whether a new upload is the same file. */
type StatementPayload = { sha256: string; format: string; lines: number; name: string };

export type StatementUpload = {
  ok: true;
  linkedAccountId: number;
  importId: number | null;
  created: boolean;
  /** The same file as the last upload: nothing was changed and no import started. */
  unchanged: boolean;
  format: string;
  lines: number;
  trades: number;
  cashFlows: number;
  events: number;
  /** Whether this statement is what the trader's grade reads (no verified account linked). */
  graded: boolean;
};

export type StatementRefusal = (Refusal<400 | 409 | 413 | 415> & { errors: string[] }) | LimitRefusal;

/**
 * A statement file uploaded: checked and parsed whole first (nothing is written for a file with
 * any bad line), then in one transaction the trader's one statement account made or found, its
 * rows replaced by the file's, and its import started (which grades). The same file again changes
 * nothing. Each upload that changes something counts as a link (the daily link limit).
 */
export async function uploadStatement(input: {
  userId: number;
  bytes: Uint8Array;
  fileName: string;
}): Promise<StatementUpload | StatementRefusal> {
  const read = readStatementFile(input.bytes);
  if (!read.ok) return read;
  const sha256 = crypto.createHash("sha256").update(input.bytes).digest("hex");
  const name = cleanName(input.fileName);
  const fingerprint = `statement:${input.userId}`;
  const db = await getDb();
  const counts = {
    trades: read.rows.trades.length,
    cashFlows: read.rows.cashFlows.length,
    events: read.rows.events.length,
  };
  const graded = (await provenanceOf(input.userId)) === "self_reported";
  const existing = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("fingerprint", "=", fingerprint)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (existing && (await lastPayload(existing.id))?.sha256 === sha256)
    return {
      ok: true,
      linkedAccountId: existing.id,
      importId: null,
      created: false,
      unchanged: true,
      format: read.format,
      lines: read.lines,
      ...counts,
      graded,
    };
  const allowed = await countLinkChange(input.userId, "link");
  if (!allowed.ok) return allowed;
  try {
    const result = await db.transaction().execute(async (trx) => {
      const linked = await linkAccount(
        {
          userId: input.userId,
          kind: "statement",
          fingerprint,
          label: name,
          institutionName: "Statement (self-reported)",
        },
        trx,
      );
      if (!linked.ok) throw new Linked406();
      // Replaced, not merged: a statement is the trader's whole history as they now give it.
      for (const table of ["trades", "cash_flows", "ledger_events", "price_marks", "trade_snapshots"] as const)
        await trx.deleteFrom(table).where("linked_account_id", "=", linked.id).execute();
      await trx.updateTable("linked_accounts").set({ label: name }).where("id", "=", linked.id).execute();
      const payload: StatementPayload = { sha256, format: read.format, lines: read.lines, name };
      await saveImport(linked.id, { ...read.rows, payloads: [{ kind: "statement", payload }] }, trx, {
        finished: false,
      });
      const importId = await startImport(trx, { userId: input.userId, linkedAccountId: linked.id, reason: "link" });
      return { linkedAccountId: linked.id, created: linked.created, importId };
    });
    wake("import-step");
    return { ok: true, ...result, unchanged: false, format: read.format, lines: read.lines, ...counts, graded };
  } catch (error) {
    // The fingerprint names the user: another's is never this one. Kept for the 406 rule's shape.
    if (error instanceof Linked406)
      return { ok: false, status: 409, message: "This statement account belongs to another trader.", errors: [] };
    throw error;
  }
}

async function lastPayload(linkedAccountId: number): Promise<StatementPayload | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("provider_payloads")
    .select("payload")
    .where("linked_account_id", "=", linkedAccountId)
    .where("kind", "=", "statement")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as StatementPayload;
}

/** The file's name as the account's label: its base name, printable, short. */
function cleanName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[^\p{L}\p{N} ._()-]/gu, "")
    .trim()
    .slice(0, 80);
  return clean || "Statement";
}

import { importPlaidAccount } from "~/sources/plaid.server";
import { fetchEvmHistory } from "~/sources/evm.server";
import { fetchSolanaHistory } from "~/sources/solana.server";
import { getDb } from "./db.server";
import type { LinkedAccountKind } from "./db/schema";
import { markImportFailed, saveImport } from "./imports.server";

/**
 * Re-imports a user's linked accounts (of one kind, or all) before an evaluation. Each account is
 * its own transaction (saveImport); a failure is recorded on the account, leaves its earlier
 * history intact, and is thrown so the evaluation answers "Evaluation is failed!" using no try.
 */
export async function reimportLinkedAccounts(userId: number, kind: LinkedAccountKind | "all"): Promise<void> {
  const db = await getDb();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select(["id", "kind", "fingerprint"])
    .where("user_id", "=", userId)
    .$if(kind !== "all", (q) => q.where("kind", "=", kind as LinkedAccountKind))
    .orderBy("id")
    .execute();
  for (const account of accounts) {
    if (account.kind === "plaid") {
      await importPlaidAccount(account.id);
      continue;
    }
    // Wallet fingerprints are "<chain>:<address>".
    const address = account.fingerprint.slice(account.kind.length + 1);
    try {
      const history = account.kind === "evm" ? await fetchEvmHistory(address) : await fetchSolanaHistory(address);
      await saveImport(account.id, history.batch);
    } catch (error) {
      await markImportFailed(account.id, String((error as Error)?.message ?? error));
      throw error;
    }
  }
}

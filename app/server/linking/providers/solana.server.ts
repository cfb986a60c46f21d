import { nextBatchPart } from "~/sources/imported";
import {
  fetchSolanaPage,
  mapSolanaTransactions,
  solanaPageTransactions,
  SOLANA_SWAPS,
  type SolanaPagePayload,
} from "~/sources/solana.server";
import { DEMO_SOLANA_RPC_URL } from "~/sources/wallet-demo";
import { swapPriceLookup } from "../../grades/prices.server";
import { getDb } from "../../platform/db.server";
import { getEnv } from "../../platform/env.server";
import { log } from "../../platform/log.server";
import { saveImport } from "../imports.server";
import {
  commitStep,
  forgetMapped,
  keepMapped,
  keptMapped,
  markMapping,
  type MappedHistory,
  type StepRow,
} from "../steps.server";
import type { AccountProvider } from "./provider";

/**
 * A Solana wallet's part of an import's cursor: the signature to read back from (absent: the
 * newest), or, once an empty page ended the history, the key of the last ledger row stored (as
 * for an EVM chain).
 */
type SolanaCursor = { solana?: { before?: string; mapping?: boolean; after?: string } };

/**
 * A Solana wallet, one page per job (getSignaturesForAddress back from the cursor's signature and
 * that page's transactions), each stored as a payload of this import with the next job; after the
 * empty page that ends the history, the stored pages are mapped (swaps priced through the price
 * source) outside any transaction and the ledger rows stored IMPORT_CHUNK_ROWS per job, as for an
 * EVM chain (DECISIONS 110, 115).
 */
async function solanaStep(row: StepRow<SolanaCursor>): Promise<void> {
  const env = getEnv();
  const address = row.fingerprint.slice("solana:".length);
  const c = row.cursor.solana ?? {};
  if (!c.mapping) {
    const config = { rpcUrl: env.SOLANA_RPC_URL ?? DEMO_SOLANA_RPC_URL, timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS };
    const page = await fetchSolanaPage(config, address, c.before);
    await commitStep(
      row,
      async (trx) => {
        if (page.next)
          await trx
            .insertInto("provider_payloads")
            .values({
              linked_account_id: row.linked_account_id,
              kind: solanaPayloadKind(row.id),
              payload: JSON.stringify(page.payload),
            })
            .execute();
        return 0;
      },
      {
        state: "fetching",
        cursor: { ...row.cursor, solana: page.next ? { before: page.next } : { mapping: true } },
        fetched: row.fetched + page.payload.signatures.length,
      },
    );
    return;
  }
  const mapped = await mappedSolana(row, address);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : "mapping",
      cursor: { ...row.cursor, solana: finished ? c : { ...c, after: last } },
      // Counted once, with the first part.
      ...(c.after === undefined ? { skipped: mapped.skipped, total: row.fetched } : {}),
    },
  );
  if (finished) forgetMapped(`${row.id}:solana`);
}

function solanaPayloadKind(importId: number) {
  return `solana.page#${importId}`;
}

async function mappedSolana(row: StepRow<SolanaCursor>, address: string): Promise<MappedHistory> {
  const key = `${row.id}:solana`;
  const kept = keptMapped(key);
  if (kept) return kept;
  await markMapping(row.id);
  const db = await getDb();
  const pages = await db
    .selectFrom("provider_payloads")
    .select(["payload"])
    .where("linked_account_id", "=", row.linked_account_id)
    .where("kind", "=", solanaPayloadKind(row.id))
    .orderBy("id")
    .execute();
  const transactions = pages.flatMap((p) =>
    solanaPageTransactions(
      address,
      (typeof p.payload === "string" ? JSON.parse(p.payload) : p.payload) as SolanaPagePayload,
    ),
  );
  const { priceAt, confidenceAt } = await swapPriceLookup({ kind: "solana" }, transactions, {
    ...SOLANA_SWAPS,
    transfers: true,
  });
  const valued = mapSolanaTransactions(transactions, priceAt, confidenceAt);
  if (valued.warnings.length)
    log("debug", "solana import warnings", { importId: row.id, warnings: valued.warnings.slice(0, 5) });
  const mapped: MappedHistory = {
    batch: valued.batch,
    skipped: {
      ...(valued.swapsSkipped ? { "swap without a USD price": valued.swapsSkipped } : {}),
      ...(valued.swapsUnshaped ? { "swap with several tokens on one side": valued.swapsUnshaped } : {}),
      ...(valued.transfersSkipped ? { "token transfer without a USD price": valued.transfersSkipped } : {}),
      ...(valued.feesSkipped ? { "network fee paid from coins the import never saw": valued.feesSkipped } : {}),
    },
  };
  keepMapped(key, mapped);
  return mapped;
}

export const solanaProvider: AccountProvider<SolanaCursor> = {
  kind: "solana",
  step: solanaStep,
  simulator: "solana",
};

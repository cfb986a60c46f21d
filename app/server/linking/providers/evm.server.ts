import {
  EVM_ACTIONS,
  evmChain,
  evmTransactions,
  fetchExplorerPage,
  mapEvmTransactions,
  nativeToken,
  nextEvmPage,
  type EvmChain,
  type EvmCursor,
  type ExplorerRow,
} from "~/sources/evm.server";
import { nextBatchPart } from "~/sources/imported";
import { DEMO_EVM_EXPLORER_URL } from "~/sources/wallet-demo";
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
 * An EVM wallet's part of an import's cursor: the page to read next (chain = index into
 * EVM_CHAINS), or the chain to map and the key of the last ledger row stored from it
 * (app/sources/imported.ts nextBatchPart).
 */
type EvmWalletCursor = { evm?: EvmCursor & { mapping?: boolean; after?: string } };

/**
 * An EVM wallet, one explorer page per job: on each chain (EVM_CHAINS) its normal, internal and
 * token transactions, in windows by block past the explorer's 10,000-row cap, each page stored as a
 * payload of this import; then the chain's pages are mapped (swaps priced in USD through the price
 * source, transfers as deposits in kind) outside any transaction, and its ledger rows stored
 * IMPORT_CHUNK_ROWS per job, each part with the next job in one short transaction.
 */
async function evmStep(row: StepRow<EvmWalletCursor>): Promise<void> {
  const env = getEnv();
  const address = row.fingerprint.slice("evm:".length);
  const chains = env.EVM_CHAINS;
  const c = row.cursor.evm ?? { chain: 0, action: 0, startBlock: 0, page: 1 };
  const chain = evmChain(chains[c.chain]!)!;
  if (!c.mapping) {
    const action = EVM_ACTIONS[c.action]!;
    const config = {
      baseUrl: env.EVM_EXPLORER_URL ?? DEMO_EVM_EXPLORER_URL,
      apiKey: env.EVM_EXPLORER_KEY,
      timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS,
    };
    const rows = await fetchExplorerPage(config, {
      chainId: chain.id,
      action,
      address,
      startBlock: c.startBlock,
      page: c.page,
    });
    const next = nextEvmPage(c, rows);
    await commitStep(
      row,
      async (trx) => {
        if (rows.length)
          await trx
            .insertInto("provider_payloads")
            .values({
              linked_account_id: row.linked_account_id,
              kind: evmPayloadKind(chain, action, row.id),
              payload: JSON.stringify({ startBlock: c.startBlock, page: c.page, result: rows }),
            })
            .execute();
        return 0;
      },
      {
        state: "fetching",
        cursor: { ...row.cursor, evm: next ? { ...next, chain: c.chain } : { ...c, mapping: true } },
        fetched: row.fetched + rows.length,
      },
    );
    return;
  }
  const mapped = await mappedEvmChain(row, address, chain);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null && c.chain + 1 >= chains.length;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : last !== null ? "mapping" : "fetching",
      cursor: {
        ...row.cursor,
        evm: finished
          ? c
          : last !== null
            ? { ...c, after: last }
            : { chain: c.chain + 1, action: 0, startBlock: 0, page: 1 },
      },
      // Counted once per chain, with its first part.
      ...(c.after === undefined ? { skipped: mapped.skipped } : {}),
    },
  );
  if (last === null) forgetMapped(`${row.id}:${chain.id}`);
}

function evmPayloadKind(chain: EvmChain, action: string, importId: number) {
  return `evm.${chain.id}.${action}#${importId}`;
}

async function mappedEvmChain(row: StepRow<EvmWalletCursor>, address: string, chain: EvmChain): Promise<MappedHistory> {
  const key = `${row.id}:${chain.id}`;
  const kept = keptMapped(key);
  if (kept) return kept;
  await markMapping(row.id);
  const db = await getDb();
  const pages = await db
    .selectFrom("provider_payloads")
    .select(["kind", "payload"])
    .where("linked_account_id", "=", row.linked_account_id)
    .where(
      "kind",
      "in",
      EVM_ACTIONS.map((action) => evmPayloadKind(chain, action, row.id)),
    )
    .orderBy("id")
    .execute();
  const rows = { txlist: [] as ExplorerRow[], txlistinternal: [] as ExplorerRow[], tokentx: [] as ExplorerRow[] };
  for (const p of pages) {
    const action = p.kind.split(".")[2]!.split("#")[0] as keyof typeof rows;
    const payload = (typeof p.payload === "string" ? JSON.parse(p.payload) : p.payload) as { result: ExplorerRow[] };
    rows[action].push(...payload.result);
  }
  const transactions = evmTransactions(address, chain, rows);
  const { priceAt, confidenceAt } = await swapPriceLookup({ kind: "evm", chainId: chain.id }, transactions, {
    nativeToken: nativeToken(chain),
    wrappedToken: chain.wrapped,
    transfers: true,
  });
  const valued = mapEvmTransactions(chain, transactions, priceAt, confidenceAt);
  if (valued.warnings.length)
    log("debug", "evm import warnings", { importId: row.id, chain: chain.id, warnings: valued.warnings.slice(0, 5) });
  const mapped = {
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

export const evmProvider: AccountProvider<EvmWalletCursor> = {
  kind: "evm",
  step: evmStep,
  simulator: "evm",
};

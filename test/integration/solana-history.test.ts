import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import bs58 from "bs58";
import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { demoSolanaHistory } from "../mocks/solana";
import { get, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// A Solana history through the real path, one provider page per job: SIWS link → import jobs
// (getSignaturesForAddress from the stored cursor + that page's transactions) → mapping with the
// price source → the ledger stored in parts, against the RPC and price simulators, with the worker
// killed once while it reads pages and once while it stores rows.

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

/** A database of the test's own, kept across restarts: a PGlite directory, or a new PostgreSQL database. */
async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-solana-")) };
  return ownDatabase();
}

async function apiPost(base: string, path: string, body: unknown, cookie: string) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
}

async function importOf(base: string, cookie: string): Promise<ImportRow | undefined> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data[0];
}

/** Polls until `caught` holds, then kills the server (kill -9) and waits for it to exit. */
async function killWhen(server: RunningServer, cookie: string, caught: (row: ImportRow) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await importOf(server.url, cookie);
    if (row && caught(row)) {
      server.process.kill("SIGKILL");
      await new Promise<void>((resolve) => server.process.once("exit", () => resolve()));
      return row;
    }
    if (Date.now() > deadline || row?.state === "done" || row?.state === "failed")
      throw new Error(`never caught: ${JSON.stringify(row)}\n${server.logs.slice(-20).join("\n")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a Solana history read one page per job (own servers)", () => {
  it("resumes from the stored cursor after a kill -9 while reading pages and another while storing, each trade once", async () => {
    // Pages of 4 signatures (a node may answer short pages), parts of 5 rows, the RPC at its real speed.
    const env = {
      SIM_SOLANA_PAGE_SIZE: "4",
      SIM_DELAY_FACTOR: "1",
      IMPORT_CHUNK_ROWS: "5",
      JOB_EXPIRE_SECONDS: "3",
      ...(await storage()),
    };
    const keys = nacl.sign.keyPair();
    const address = bs58.encode(keys.publicKey);
    const history = demoSolanaHistory(address);
    const signatures = history.txs.length;
    const pages = Math.ceil(signatures / 4);
    // Some swaps have SOL and WSOL on one side: each of their legs is a trade (DECISIONS 221).
    expect(history.bothForms).toBeGreaterThan(0);

    const first = await startServer(env);
    started.push(first);
    const { cookie } = await signUp({ base: first.url });
    const nonce = await apiPost(first.url, "/api/solana/nonce", { wallet_address: address }, cookie);
    const message = nonce.body.data!.message as string;
    const signature = bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), keys.secretKey));
    const linked = await apiPost(
      first.url,
      "/api/solana/wallet",
      { wallet_address: address, message, signature },
      cookie,
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);

    // Killed in the middle of the pages: some read, more to come.
    const reading = await killWhen(
      first,
      cookie,
      (row) => row.state === "fetching" && row.fetched >= 8 && row.fetched < signatures - 8,
    );
    expect(reading.trades_added).toBe(0);

    // The next server reads on from the stored cursor; killed again while the rows go in.
    const second = await startServer(env);
    started.push(second);
    const storing = await killWhen(second, cookie, (row) => row.state === "mapping" && row.trades_added > 0);
    expect(storing.fetched).toBe(signatures);
    expect(storing.trades_added).toBeLessThan(history.trades);

    const third = await startServer(env);
    started.push(third);
    const [done] = await waitForImports(cookie, { base: third.url, timeoutMs: 90_000 });
    // Every signature read once (a page whose job died uncommitted is read again, counted once),
    // every trade stored once, across at least a job per page and per part.
    expect(done, JSON.stringify(done)).toMatchObject({
      id: reading.id,
      state: "done",
      error: null,
      fetched: signatures,
      total: signatures,
      skipped: [],
      trades_added: history.trades,
    });
    expect(done!.attempts).toBeGreaterThanOrEqual(pages + 1 + Math.ceil(history.trades / 5));
    const trades = (await (await get("/api/portal/trades?page_size=1", { cookie, base: third.url })).json()) as {
      meta: { total: number };
    };
    expect(trades.meta.total).toBe(history.trades);
  }, 240_000);
});

import crypto from "node:crypto";
import { expect } from "vitest";
import { get, type ImportRow } from "./http";

// Linking the demo broker over HTTP and watching its import, for tests that run their own servers.

/** Links the demo broker's `username` (user_good_…; `scenario` prefixes a simulator scenario) and returns the account and its import. */
export async function exchange(base: string, cookie: string, username: string, scenario = "") {
  const res = await fetch(base + "/api/finance/plaid/exchange-public-token", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({
      public_token: `public-sandbox-${scenario}${username}-${crypto.randomBytes(4).toString("hex")}`,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { accounts: { id: number; import_id: number }[] } }).data.accounts[0]!;
}

export async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { base, cookie })).json()) as { data: ImportRow[] }).data;
}

/** Waits until the import has stored some pages but not all. */
export async function midImport(base: string, cookie: string): Promise<ImportRow> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await importsOf(base, cookie);
    if (row && row.state === "fetching" && row.fetched > 0 && row.total && row.fetched < row.total) return row;
    if (Date.now() > deadline || row?.state === "done")
      throw new Error(`never caught mid-import: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The trades stored for the user's linked accounts. */
export async function tradesOf(base: string, cookie: string): Promise<number> {
  const list = (
    (await (await get("/api/finance/plaid/accounts", { base, cookie })).json()) as { data: { trades: number }[] }
  ).data;
  return list.reduce((n, a) => n + a.trades, 0);
}

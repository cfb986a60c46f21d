import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUMP_MINT, solanaHandlers, SWAP_PROGRAMS } from "../../test/mocks/solana";
import { DEMO_SOLANA_RPC_URL } from "./wallet-demo";
import { NATIVE_TOKEN } from "./swaps";
import {
  fetchSolanaPage,
  mapSolanaTransactions,
  solanaPageTransactions,
  type SolanaPagePayload,
} from "./solana.server";

// The adapter through the real @solana/web3.js Connection against the RPC simulator (msw).
const rpc = setupServer(...solanaHandlers());
const calls: string[] = [];
rpc.events.on("request:start", async ({ request }) => {
  const body = (await request.clone().json()) as { method?: string } | { method?: string }[];
  for (const c of Array.isArray(body) ? body : [body]) calls.push(String(c.method));
});
const OWNER = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const CONFIG = { rpcUrl: DEMO_SOLANA_RPC_URL, timeoutMs: 5000 };

beforeAll(() => {
  process.env.SIM_SOLANA_PAGE_SIZE = "25"; // pages shorter than asked, as a node may answer
  rpc.listen({ onUnhandledRequest: "error" });
});
afterAll(() => {
  delete process.env.SIM_SOLANA_PAGE_SIZE;
  rpc.close();
});

/** Every page, as the linking module reads them (one per job), until the empty page. */
async function allPages(): Promise<SolanaPagePayload[]> {
  const pages: SolanaPagePayload[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await fetchSolanaPage(CONFIG, OWNER, before);
    if (!page.next) {
      expect(page.payload.signatures).toEqual([]);
      return pages;
    }
    expect(page.payload.before).toBe(before ?? null);
    pages.push(page.payload);
    before = page.next;
  }
}

describe("Solana history", () => {
  it("pages getSignaturesForAddress with `before` to the end, reads swaps of every DEX from balance deltas, and prices each one without a stablecoin leg", async () => {
    const pages = await allPages();
    const transactions = pages.flatMap((p) => solanaPageTransactions(OWNER, p));
    const signaturePages = calls.filter((c) => c === "getSignaturesForAddress").length;
    // Every signature, in pages of 25, and one empty page that ends the history.
    expect(signaturePages).toBe(pages.length + 1);
    expect(signaturePages).toBe(Math.ceil(transactions.length / 25) + 1);
    expect(transactions.length).toBeGreaterThan(50);
    expect(new Set(transactions.map((t) => t.id)).size).toBe(transactions.length);
    // Each page's transactions in one batch: two calls a page (a job), plus the empty page.
    expect(calls.filter((c) => c === "getTransaction").length).toBe(transactions.length);

    // Routed through Jupiter, Raydium, Orca and pump.fun: the stored answers name each program.
    const raw = JSON.stringify(pages.map((p) => p.transactions));
    for (const program of Object.values(SWAP_PROGRAMS)) expect(raw).toContain(program);
    // A stored page, read back from JSON as the mapping job does, gives the same legs.
    const stored = JSON.parse(JSON.stringify(pages)) as SolanaPagePayload[];
    expect(stored.flatMap((p) => solanaPageTransactions(OWNER, p))).toEqual(transactions);

    const swaps = transactions.filter((t) => t.legs.some((l) => l.amount < 0) && t.legs.some((l) => l.amount > 0));
    const noStable = swaps.filter((t) => !t.legs.some((l) => l.stable));
    expect(noStable.length).toBeGreaterThan(0);
    expect(noStable.some((t) => t.legs.some((l) => l.token === NATIVE_TOKEN))).toBe(true); // native lamports as a leg
    expect(swaps.some((t) => t.legs.some((l) => l.token === PUMP_MINT))).toBe(true);

    // Without prices a swap with no stablecoin leg and no earlier price is lost (the first such swap
    // on its own: in the history its tokens were priced by earlier swaps); with them, none is.
    const unpriced = mapSolanaTransactions([noStable[0]!]);
    expect(unpriced.swapsSkipped).toBe(1);
    expect(unpriced.batch.trades).toEqual([]);
    const price = new Map<string, number>([[NATIVE_TOKEN, 150]]);
    const priced = mapSolanaTransactions(transactions, (token) => price.get(token) ?? 0.5);
    expect(priced.swapsSeen).toBe(swaps.length);
    expect(priced.swapsSkipped).toBe(0);
    // A swap of SOL and a token is valued through SOL's price at the time.
    const solSwap = noStable.find((t) => t.legs.some((l) => l.token === NATIVE_TOKEN))!;
    const solLeg = solSwap.legs.find((l) => l.token === NATIVE_TOKEN)!;
    const solTrade = priced.batch.trades.find((t) => t.externalId === solLeg.id)!;
    expect(solTrade).toMatchObject({ symbol: "SOL", side: solLeg.amount < 0 ? "sell" : "buy", price: 150 });
  });
});

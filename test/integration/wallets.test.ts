import bs58 from "bs58";
import { Wallet } from "ethers";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { DEMO_CONTRACT_WALLET, EVM_FAILURE_KEYS } from "../mocks/evm";
import { SOLANA_FAILURE_SEEDS } from "../mocks/solana";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Wallet linking against the msw explorer and Solana RPC simulators (the test server has no
// EVM_EXPLORER_URL / SOLANA_RPC_URL, so it runs them). Keys are real: ethers wallets and
// tweetnacl key pairs sign the server's messages exactly as MetaMask and Phantom would.

type Answer = {
  status: number;
  body: { data?: Record<string, unknown>; error?: { message: string; fields?: Record<string, string> }; code?: number };
};

async function apiPost(path: string, body: unknown, cookie: string, base = baseUrl()): Promise<Answer> {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

type Signer = {
  chain: "evm" | "solana";
  address: string;
  sent: string;
  sign: (message: string) => Promise<string> | string;
};

function evmSigner(wallet: { address: string; signMessage(m: string): Promise<string> }): Signer {
  // PRODUCT §5: the browser sends the address without its 0x prefix.
  return { chain: "evm", address: wallet.address, sent: wallet.address.slice(2), sign: (m) => wallet.signMessage(m) };
}

function solanaSigner(keys = nacl.sign.keyPair()): Signer {
  const address = bs58.encode(keys.publicKey);
  return {
    chain: "solana",
    address,
    sent: address,
    sign: (m) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(m), keys.secretKey)),
  };
}

async function nonceFor(signer: Signer, cookie: string, base?: string): Promise<string> {
  const res = await apiPost(`/api/${signer.chain}/nonce`, { wallet_address: signer.sent }, cookie, base);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.message as string;
}

async function link(signer: Signer, cookie: string, opts: { base?: string; edit?: (m: string) => string } = {}) {
  const issued = await nonceFor(signer, cookie, opts.base);
  const message = opts.edit ? opts.edit(issued) : issued;
  const signature = await signer.sign(message);
  const res = await apiPost(
    `/api/${signer.chain}/wallet`,
    { wallet_address: signer.sent, message, signature },
    cookie,
    opts.base,
  );
  return { ...res, message, signature };
}

async function unlink(cookie: string, id: number) {
  const res = await postForm("/profile/account", { intent: "unlink", id: String(id), confirm: "yes" }, { cookie });
  expect(res.headers.get("location")).toBe("/profile/account?unlinked=1");
}

const chains = [
  {
    name: "EVM (MetaMask)",
    chain: "evm" as const,
    fresh: () => evmSigner(Wallet.createRandom()),
    failing: (mode: keyof typeof EVM_FAILURE_KEYS) => evmSigner(new Wallet(EVM_FAILURE_KEYS[mode])),
  },
  {
    name: "Solana (Phantom)",
    chain: "solana" as const,
    fresh: () => solanaSigner(),
    failing: (mode: "explorer500" | "timeout" | "malformed" | "flaky") =>
      solanaSigner(nacl.sign.keyPair.fromSeed(SOLANA_FAILURE_SEEDS[mode === "explorer500" ? "rpc500" : mode])),
  },
];

describe.each(chains)("$name wallets", ({ chain, fresh, failing }) => {
  it("issues a sign-in message for our domain with a nonce and a 10-minute expiry", async () => {
    const { cookie } = await signUp();
    const signer = fresh();
    const message = await nonceFor(signer, cookie);
    const lines = message.split("\n");
    expect(lines[0]).toBe(
      `localhost:3000 wants you to sign in with your ${chain === "evm" ? "Ethereum" : "Solana"} account:`,
    );
    expect(lines[1]).toBe(signer.address); // checksummed, with 0x, although it was sent without
    expect(message).toContain("\nURI: http://localhost:3000\n");
    expect(message).toContain(`\nChain ID: ${chain === "evm" ? "1" : "mainnet"}\n`);
    const issued = Date.parse(/Issued At: (.+)/.exec(message)![1]!);
    const expires = Date.parse(/Expiration Time: (.+)/.exec(message)![1]!);
    expect(expires - issued).toBe(600_000);
    expect(/Nonce: ([A-Za-z0-9]{16,})/.test(message)).toBe(true);
    // The Host header does not change the domain.
    const spoofed = await fetch(baseUrl() + `/api/${chain}/nonce`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "x-forwarded-host": "evil.example" },
      body: JSON.stringify({ wallet_address: signer.sent }),
    });
    expect(((await spoofed.json()) as { data: { message: string } }).data.message.startsWith("localhost:3000 ")).toBe(
      true,
    );
  });

  it("links with a real signature, imports buys and sells, and a re-import adds nothing", async () => {
    const { cookie } = await signUp();
    const signer = fresh();
    const first = await link(signer, cookie);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const data = first.body.data!;
    expect(data.fingerprint).toBe(`${chain}:${signer.address}`);
    expect(data.demo).toBe(true);
    // Linking answers at once; the history arrives through an import job.
    expect(data.status).toBe("importing");
    const [imported] = await waitForImports(cookie);
    expect(imported).toMatchObject({ id: data.import_id, state: "done", error: null });
    expect(imported!.trades_added).toBeGreaterThan(20);
    const trades = (await (await get("/api/portal/trades?page_size=100", { cookie })).json()) as {
      data: { side: string }[];
    };
    expect(trades.data.some((t) => t.side === "buy")).toBe(true);
    expect(trades.data.some((t) => t.side === "sell")).toBe(true);
    const again = await link(signer, cookie);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data!.created).toBe(false);
    const [reimported] = await waitForImports(cookie);
    expect(reimported).toMatchObject({ id: again.body.data!.import_id, state: "done", trades_added: 0 });
  });

  it("needs the proof: a bare address is refused with 400", async () => {
    const { cookie } = await signUp();
    const res = await apiPost(`/api/${chain}/wallet`, { wallet_address: fresh().sent }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(/An address alone is not accepted/);
    expect(Object.keys(res.body.error!.fields!)).toEqual(["message", "signature"]);
    const bad = await apiPost(`/api/${chain}/nonce`, { wallet_address: "not-an-address" }, cookie);
    expect(bad.status).toBe(400);
    const anonymous = await fetch(baseUrl() + `/api/${chain}/nonce`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ wallet_address: fresh().sent }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("refuses a signature by another key", async () => {
    const { cookie } = await signUp();
    const signer = fresh();
    const other = fresh();
    const message = await nonceFor(signer, cookie);
    const res = await apiPost(
      `/api/${chain}/wallet`,
      { wallet_address: signer.sent, message, signature: await other.sign(message) },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(/signature does not match/);
    // The nonce was not spent by the failed attempt: the right signature still works.
    const ok = await apiPost(
      `/api/${chain}/wallet`,
      { wallet_address: signer.sent, message, signature: await signer.sign(message) },
      cookie,
    );
    expect(ok.status).toBe(201);
  });

  it("refuses a reused nonce", async () => {
    const { cookie } = await signUp();
    const signer = fresh();
    const first = await link(signer, cookie);
    expect(first.status).toBe(201);
    const replay = await apiPost(
      `/api/${chain}/wallet`,
      { wallet_address: signer.sent, message: first.message, signature: first.signature },
      cookie,
    );
    expect(replay.status).toBe(400);
    expect(replay.body.error!.message).toMatch(/already used/);
  });

  it("refuses a message for another domain, and one that differs from the issued text", async () => {
    const { cookie } = await signUp();
    const signer = fresh();
    const foreign = await link(signer, cookie, {
      edit: (m) =>
        m
          .replace(/^localhost:3000 /, "evil.example ")
          .replace("URI: http://localhost:3000", "URI: https://evil.example"),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error!.message).toMatch(/another site \(evil\.example\)/);
    const altered = await link(signer, cookie, {
      edit: (m) => m.replace(/Expiration Time: .+/, "Expiration Time: 2999-01-01T00:00:00.000Z"),
    });
    expect(altered.status).toBe(400);
    expect(altered.body.error!.message).toMatch(/differs from the one this site issued/);
  });

  it("answers 406 (HTTP 409) for a wallet another user holds, and links nothing", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const signer = fresh();
    expect((await link(signer, alice.cookie)).status).toBe(201);
    const res = await link(signer, bob.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: { message: MESSAGE_406 }, code: 406 });
    // Alice still holds it.
    expect((await link(signer, alice.cookie)).status).toBe(200);
  });

  it.each([
    ["explorer500", /answered HTTP 500/],
    ["malformed", /malformed JSON/],
  ] as const)(
    "a provider failure (%s) is retried, then the import ends failed with a clear message",
    async (mode, pattern) => {
      const alice = await signUp();
      const signer = failing(mode);
      const res = await link(signer, alice.cookie);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const [failed] = await waitForImports(alice.cookie);
      expect(failed).toMatchObject({ state: "failed", trades_added: 0 });
      expect(failed!.error).toMatch(pattern);
      expect(failed!.error).toMatch(/Gave up after 3 attempts/);
      // "Try the import again" on the account page (a plain form) starts another import.
      const retry = await postForm(
        "/profile/account",
        { intent: "reimport", id: String(failed!.linked_account_id) },
        { cookie: alice.cookie },
      );
      expect(retry.status).toBe(302);
      expect(retry.headers.get("location")).toBe("/profile/account?retrying=1");
      const rows = await waitForImports(alice.cookie);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ reason: "retry", state: "failed" });
      // A failed wallet stays linked until its owner unlinks it (these test wallets are fixed keys:
      // unlinking keeps the suite repeatable on a reused PostgreSQL database).
      await unlink(alice.cookie, failed!.linked_account_id);
    },
  );

  it("a failed re-import leaves the earlier ledger as it was", async () => {
    // The simulator fails every second reading of this wallet's history.
    const { cookie } = await signUp();
    const signer = failing("flaky");
    const first = await link(signer, cookie);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const [imported] = await waitForImports(cookie);
    // One attempt per step (an EVM wallet takes a job per explorer page, a Solana wallet one).
    expect(imported).toMatchObject({ state: "done" });
    const found = imported!.trades_added;
    expect(found).toBeGreaterThan(0);
    // The next reading fails (HTTP 503): the job retries it, and the ledger never doubles.
    const again = await link(signer, cookie);
    expect(again.status).toBe(200);
    const [retried] = await waitForImports(cookie);
    expect(retried).toMatchObject({
      id: again.body.data!.import_id,
      state: "done",
      attempts: imported!.attempts + 1,
      trades_added: 0,
    });
    const trades = (await (await get("/api/portal/trades?page_size=1", { cookie })).json()) as {
      meta: { total: number };
    };
    expect(trades.meta.total).toBe(found);
    await unlink(cookie, retried!.linked_account_id);
  });
});

describe("smart-contract wallets (EIP-1271)", () => {
  it("links a contract wallet by its owner's signature, resolved through isValidSignature on the explorer simulator", async () => {
    const { cookie } = await signUp();
    const owner = new Wallet(DEMO_CONTRACT_WALLET.ownerKey);
    const contract: Signer = {
      chain: "evm",
      address: DEMO_CONTRACT_WALLET.address,
      sent: DEMO_CONTRACT_WALLET.address,
      sign: (m) => owner.signMessage(m),
    };
    // Another key's signature is refused by the contract.
    const message = await nonceFor(contract, cookie);
    const refused = await apiPost(
      "/api/evm/wallet",
      { wallet_address: contract.sent, message, signature: await Wallet.createRandom().signMessage(message) },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error!.message).toMatch(/signature does not match/);
    const res = await apiPost(
      "/api/evm/wallet",
      { wallet_address: contract.sent, message, signature: await owner.signMessage(message) },
      cookie,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ fingerprint: `evm:${DEMO_CONTRACT_WALLET.address}`, status: "importing" });
    await waitForImports(cookie);
    await unlink(cookie, res.body.data!.linked_account_id as number);
  });
});

describe("short limits (second server: 2 s nonces, 1.5 s provider time limit)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      WALLET_NONCE_TTL_SECONDS: "2",
      WALLET_PROVIDER_TIMEOUT_MS: "1500",
      ...(await ownDatabase()),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(chains)("$name: an expired message is refused", async ({ fresh }) => {
    const { cookie } = await signUp({ base: server.url });
    const signer = fresh();
    const message = await nonceFor(signer, cookie, server.url);
    await new Promise((r) => setTimeout(r, 2300));
    const res = await apiPost(
      `/api/${signer.chain}/wallet`,
      { wallet_address: signer.sent, message, signature: await signer.sign(message) },
      cookie,
      server.url,
    );
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(/expired/);
  });

  it.each(chains)("$name: a provider that never answers times out with a clear error", async ({ failing }) => {
    const { cookie } = await signUp({ base: server.url });
    const started = Date.now();
    const res = await link(failing("timeout"), cookie, { base: server.url });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000); // linking does not wait for the provider
    const [failed] = await waitForImports(cookie, { base: server.url });
    expect(failed).toMatchObject({ state: "failed" });
    expect(failed!.error).toMatch(/did not answer within 2 s/);
  });
});

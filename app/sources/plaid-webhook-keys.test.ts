import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PLAID_SANDBOX, plaidHandlers, signDemoWebhook } from "../../test/mocks/plaid";
import {
  FAILED_LOOKUP_MS,
  KEY_LOOKUPS_PER_MINUTE,
  plaidClient,
  UNKNOWN_KID_MS,
  verifyPlaidWebhook,
  WebhookRejected,
} from "./plaid.server";

// Webhook verification against the Plaid simulator at the network edge: how often an unknown kid
// makes us call /webhook_verification_key/get, and a replay within the 5 minutes.
const server = setupServer(...plaidHandlers());
const lookups: string[] = [];
const client = plaidClient({ env: "sandbox" });
const raw = JSON.stringify({ webhook_type: "HOLDINGS", webhook_code: "DEFAULT_UPDATE", item_id: "item-1" });
const headers = (jwt: string) => new Headers({ "plaid-verification": jwt });

// Records ids in memory, as the table does across processes (linking.server.ts).
function seenSet() {
  const seen = new Set<string>();
  return async (id: string) => (seen.has(id) ? false : (seen.add(id), true));
}

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (error instanceof WebhookRejected) return error.message;
    throw error;
  }
  return "accepted";
}

let clock = Date.UTC(2026, 0, 1);
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("request:start", ({ request }) => {
    if (new URL(request.url).pathname === "/webhook_verification_key/get") lookups.push(request.url);
  });
});
beforeEach(() => {
  // Each test in its own hour: the per-minute bound and the refusals of earlier tests have passed.
  vi.useFakeTimers({ toFake: ["Date"] });
  clock += 3_600_000;
  vi.setSystemTime(clock);
  lookups.length = 0;
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

describe("webhook verification keys", () => {
  it("asks Plaid once about an unknown kid, however often and however concurrently it is sent", async () => {
    const kid = `made-up-${crypto.randomUUID()}`;
    const jwt = await signDemoWebhook(raw, { kid, iat: Math.floor(clock / 1000) });
    const together = await Promise.all(
      Array.from({ length: 5 }, () => reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet()))),
    );
    for (let i = 0; i < 20; i++) together.push(await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet())));
    expect(new Set(together)).toEqual(new Set(["unknown key id"]));
    expect(lookups).toHaveLength(1);
    // Asked again only once the refusal has run out.
    vi.setSystemTime(clock + UNKNOWN_KID_MS - 1_000);
    await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet()));
    expect(lookups).toHaveLength(1);
    vi.setSystemTime(clock + UNKNOWN_KID_MS + 1_000);
    await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet()));
    expect(lookups).toHaveLength(2);
  });

  it("asks again after a failed call sooner, but not at once", async () => {
    server.use(
      http.post(`${PLAID_SANDBOX}/webhook_verification_key/get`, () =>
        HttpResponse.json(
          { error_type: "API_ERROR", error_code: "INTERNAL_SERVER_ERROR", error_message: "x" },
          { status: 500 },
        ),
      ),
    );
    const kid = `flaky-${crypto.randomUUID()}`;
    const jwt = await signDemoWebhook(raw, { kid, iat: Math.floor(clock / 1000) });
    for (let i = 0; i < 3; i++) await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet()));
    expect(lookups).toHaveLength(1);
    vi.setSystemTime(clock + FAILED_LOOKUP_MS + 1_000);
    await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet()));
    expect(lookups).toHaveLength(2);
  });

  it("calls Plaid at most KEY_LOOKUPS_PER_MINUTE times a minute for made-up kids, and a known key still verifies", async () => {
    // The real key first: once held, it needs no call, whatever the bound.
    const good = await signDemoWebhook(raw, { iat: Math.floor(clock / 1000) });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(good), seenSet()))).toBe("accepted");
    lookups.length = 0;
    const answers: string[] = [];
    for (let i = 0; i < KEY_LOOKUPS_PER_MINUTE * 3; i++) {
      const jwt = await signDemoWebhook(raw, {
        kid: `flood-${i}-${crypto.randomUUID()}`,
        iat: Math.floor(clock / 1000),
      });
      answers.push(await reason(verifyPlaidWebhook(client, raw, headers(jwt), seenSet())));
    }
    expect(lookups).toHaveLength(KEY_LOOKUPS_PER_MINUTE - 1);
    expect(answers.filter((a) => a === "key look-ups over their limit").length).toBeGreaterThan(KEY_LOOKUPS_PER_MINUTE);
    const again = await signDemoWebhook(raw, { iat: Math.floor(clock / 1000) });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(again), seenSet()))).toBe("accepted");
  });
});

describe("webhook replays", () => {
  it("refuses the same webhook sent again, also with a re-encoded signature, and accepts a new one", async () => {
    const firstSeen = seenSet();
    const iat = Math.floor(clock / 1000);
    const jwt = await signDemoWebhook(raw, { iat });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(jwt), firstSeen))).toBe("accepted");
    expect(await reason(verifyPlaidWebhook(client, raw, headers(jwt), firstSeen))).toBe("replayed");
    // ECDSA's other valid signature for the same message, (r, n − s): still the same webhook.
    const [h, p, sig] = jwt.split(".");
    const bytes = Buffer.from(sig!, "base64url");
    const n = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    const s = BigInt(`0x${bytes.subarray(32).toString("hex")}`);
    const flipped = Buffer.concat([bytes.subarray(0, 32), Buffer.from((n - s).toString(16).padStart(64, "0"), "hex")]);
    const malleated = `${h}.${p}.${flipped.toString("base64url")}`;
    expect(malleated).not.toBe(jwt);
    expect(await reason(verifyPlaidWebhook(client, raw, headers(malleated), firstSeen))).toBe("replayed");
    // Plaid's next webhook (another iat) is a new one.
    const next = await signDemoWebhook(raw, { iat: iat + 1 });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(next), firstSeen))).toBe("accepted");
  });

  it("records nothing for a webhook that fails verification", async () => {
    const recorded: string[] = [];
    const firstSeen = async (id: string) => (recorded.push(id), true);
    const stale = await signDemoWebhook(raw, { iat: Math.floor(clock / 1000) - 6 * 60 });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(stale), firstSeen))).toBe(
      "signature or age check failed",
    );
    const other = await signDemoWebhook(raw + " ", { iat: Math.floor(clock / 1000) });
    expect(await reason(verifyPlaidWebhook(client, raw, headers(other), firstSeen))).toBe("body hash mismatch");
    expect(recorded).toEqual([]);
  });
});

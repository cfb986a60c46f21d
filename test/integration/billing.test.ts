import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp } from "../support/http";
import { deliver as deliverTo, fixtureEvent, sign } from "../support/stripe";

// Real HTTP against the built server in Stripe demo mode: the `stripe` SDK talks to the msw
// simulator, webhooks are signed with the demo secret exactly as Stripe signs them (test/support/stripe.ts).

async function createSession(cookie: string, priceId: string) {
  return fetch(baseUrl() + "/api/stripe/create_stripe_session", {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: baseUrl() },
    body: JSON.stringify({ price_id: priceId }),
  });
}

async function triesCount(cookie: string): Promise<number> {
  const html = await (await get("/pricing", { cookie })).text();
  const m = /data-testid="tries-count">(\d+)</.exec(html);
  if (!m) throw new Error("no tries count on /pricing");
  return Number(m[1]);
}

const deliver = (payload: string, signature: string) => deliverTo(baseUrl(), payload, signature);

async function newSession(cookie: string, priceId = "price_demo_starter") {
  const res = await createSession(cookie, priceId);
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: { client_secret: string; session_id: string } };
  return data;
}

describe("POST /api/stripe/create_stripe_session", () => {
  it("answers a client_secret for embedded Checkout", async () => {
    const { cookie } = await signUp();
    const data = await newSession(cookie);
    expect(data.client_secret).toMatch(/^cs_test_[A-Za-z0-9]+_secret_[0-9a-f]+$/);
    expect(data.client_secret.startsWith(data.session_id)).toBe(true);
  });

  it("refuses an unknown price id with 400 and an anonymous caller with 401", async () => {
    const { cookie } = await signUp();
    const res = await createSession(cookie, "price_nope");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("Unknown price id.");
    const anon = await fetch(baseUrl() + "/api/stripe/create_stripe_session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ price_id: "price_demo_starter" }),
    });
    expect(anon.status).toBe(401);
  });
});

describe("POST /api/stripe/webhook", () => {
  it("grants the pass for a signed checkout.session.completed (paid), once; a replay does nothing", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const { session_id } = await newSession(cookie);
    const payload = fixtureEvent(session_id);
    const res = await deliver(payload, sign(payload));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });
    expect(await triesCount(cookie)).toBe(before + 10);

    const replay = await deliver(payload, sign(payload));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    // The same session in a new event (Stripe may send both completed and a retry): still once.
    const again = fixtureEvent(session_id);
    expect((await deliver(again, sign(again))).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before + 10);
  });

  it("10 concurrent deliveries of one event: processed once, the rest are duplicates", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const { session_id } = await newSession(cookie);
    const payload = fixtureEvent(session_id);
    const signature = sign(payload);
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await deliver(payload, signature)).json() as Promise<{ duplicate: boolean }>,
      ),
    );
    expect(answers.filter((a) => a.duplicate === false)).toHaveLength(1);
    expect(answers.filter((a) => a.duplicate === true)).toHaveLength(9);
    expect(await triesCount(cookie)).toBe(before + 10);
  });

  it("refuses a tampered body, an old timestamp, a wrong secret and a missing header with 400", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const { session_id } = await newSession(cookie);
    const payload = fixtureEvent(session_id);
    const signature = sign(payload);
    const tampered = payload.replace('"amount_total": 499', '"amount_total": 1');
    expect(tampered).not.toBe(payload);
    expect((await deliver(tampered, signature)).status).toBe(400);
    // Re-serialised (whitespace changed): the signature covers the raw bytes.
    expect((await deliver(JSON.stringify(JSON.parse(payload)), signature)).status).toBe(400);
    const old = sign(payload, Math.floor(Date.now() / 1000) - 600);
    expect((await deliver(payload, old)).status).toBe(400);
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_ours" });
    expect((await deliver(payload, wrong)).status).toBe(400);
    expect((await fetch(baseUrl() + "/api/stripe/webhook", { method: "POST", body: payload })).status).toBe(400);
    expect(await triesCount(cookie)).toBe(before);
    // The genuine delivery still works afterwards (refused ones recorded nothing).
    expect((await deliver(payload, signature)).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before + 10);
  });

  it("waits for async payments: completed+unpaid is processing, async_payment_succeeded grants, async_payment_failed fails", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const a = await newSession(cookie, "price_demo_pro");
    const unpaid = fixtureEvent(a.session_id, { payment_status: "unpaid", amount_total: 1499 });
    expect((await deliver(unpaid, sign(unpaid))).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before);
    const ok = fixtureEvent(a.session_id, {
      type: "checkout.session.async_payment_succeeded",
      payment_status: "paid",
      amount_total: 1499,
    });
    expect((await deliver(ok, sign(ok))).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before + 50);

    const b = await newSession(cookie, "price_demo_pro");
    const failed = fixtureEvent(b.session_id, {
      type: "checkout.session.async_payment_failed",
      payment_status: "unpaid",
      amount_total: 1499,
    });
    expect((await deliver(failed, sign(failed))).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before + 50);
    const shown = await (await get(`/pay-result?session_id=${b.session_id}`, { cookie })).text();
    expect(shown).toContain("Payment failed");
    expect(shown).toContain('data-state="failed"');
    expect(await triesCount(cookie)).toBe(before + 50);
  });

  it("does not grant when the paid amount differs from the pass price", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const { session_id } = await newSession(cookie);
    const cheap = fixtureEvent(session_id, { amount_total: 1 });
    expect((await deliver(cheap, sign(cheap))).status).toBe(200);
    expect(await triesCount(cookie)).toBe(before);
  });
});

describe("hosted checkout and the demo checkout page", () => {
  async function startHosted(cookie: string, priceId = "price_demo_starter") {
    const res = await postForm("/pricing", { price_id: priceId }, { cookie });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/\/demo\/checkout\/cs_test_[A-Za-z0-9]+$/);
    return new URL(location, baseUrl()).pathname;
  }

  it("the success card pays, the signed webhook fulfils, and /pay-result shows paid", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const page = await startHosted(cookie);
    const form = await get(page, { cookie });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("4242 4242 4242 4242");
    const paid = await postForm(
      page,
      { card_number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" },
      { cookie },
    );
    expect(paid.status).toBe(302);
    const result = paid.headers.get("location")!;
    expect(result).toMatch(/^\/pay-result\?session_id=cs_test_/);
    // The webhook already granted it (before the redirect); the return page agrees and grants nothing more.
    expect(await triesCount(cookie)).toBe(before + 10);
    const html = await (await get(result, { cookie })).text();
    expect(html).toContain("Payment successful");
    expect(html).toContain('data-state="paid"');
    expect(await triesCount(cookie)).toBe(before + 10);
    // A paid session's checkout page goes straight to the result.
    expect((await get(page, { cookie })).headers.get("location")).toBe(result);
  });

  it("delivers the demo webhook to this server, never to the port a Host header names", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const page = await startHosted(cookie);
    const hits: string[] = [];
    const decoy = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end("ok");
    });
    await new Promise<void>((r) => decoy.listen(0, "127.0.0.1", r));
    const decoyHost = `localhost:${(decoy.address() as AddressInfo).port}`;
    try {
      const body = new URLSearchParams({
        card_number: "4242 4242 4242 4242",
        expiry: "12 / 34",
        cvc: "123",
      }).toString();
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(baseUrl() + page);
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            headers: {
              host: decoyHost,
              origin: `http://${decoyHost}`,
              cookie,
              "content-type": "application/x-www-form-urlencoded",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
      expect(status).toBe(302);
      expect(hits).toEqual([]);
      expect(await triesCount(cookie)).toBe(before + 10);
    } finally {
      decoy.close();
    }
  });

  it("the declined card shows a clear failure and grants nothing", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const page = await startHosted(cookie);
    const declined = await postForm(
      page,
      { card_number: "4000 0000 0000 0002", expiry: "12 / 34", cvc: "123" },
      { cookie },
    );
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect(await triesCount(cookie)).toBe(before);
    const sessionId = page.split("/").pop();
    const html = await (await get(`/pay-result?session_id=${sessionId}`, { cookie })).text();
    expect(html).toContain("Payment not completed");
    expect(await triesCount(cookie)).toBe(before);
  });

  it("an expired card is refused beside the expiry field and nothing is charged", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const page = await startHosted(cookie);
    for (const expiry of ["01/20", "12 / 25"]) {
      const res = await postForm(page, { card_number: "4242 4242 4242 4242", expiry, cvc: "123" }, { cookie });
      expect(res.status, expiry).toBe(400);
      expect(await res.text(), expiry).toContain("Your card&#x27;s expiry date is in the past.");
    }
    expect(await triesCount(cookie)).toBe(before);
    // The session is still open: the form is shown again, not the result.
    expect((await get(page, { cookie })).status).toBe(200);
  });

  it("a card that leaves the payment processing shows processing and grants nothing yet", async () => {
    const { cookie } = await signUp();
    const before = await triesCount(cookie);
    const page = await startHosted(cookie);
    const res = await postForm(page, { card_number: "4000 0000 0000 0077", expiry: "12 / 34", cvc: "123" }, { cookie });
    expect(res.status).toBe(302);
    const html = await (await get(res.headers.get("location")!, { cookie })).text();
    expect(html).toContain("Payment processing");
    expect(await triesCount(cookie)).toBe(before);
  });

  it("another user cannot open someone's checkout or result", async () => {
    const owner = await signUp();
    const other = await signUp();
    const page = await startHosted(owner.cookie);
    expect((await get(page, { cookie: other.cookie })).status).toBe(404);
    expect((await get(`/pay-result?session_id=${page.split("/").pop()}`, { cookie: other.cookie })).status).toBe(404);
  });

  it("an unknown pass on /pricing is a 400 with a message", async () => {
    const { cookie } = await signUp();
    const res = await postForm("/pricing", { price_id: "price_bogus" }, { cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("That pass does not exist.");
  });
});

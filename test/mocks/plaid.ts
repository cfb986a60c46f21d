import crypto from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { http, HttpResponse } from "msw";
import {
  DEMO_HISTORY_END,
  DEMO_INSTITUTION,
  DEMO_PASSWORD,
  DEMO_USERNAME_RE,
  demoAccountIds,
  demoBrokerage,
  demoItemId,
  parseDemoToken,
} from "./plaid-data";
import { simDelay, simDelayFactor } from "./sim-delay";

/** The holdings-mismatch scenario's extra HON shares (the history holds 8). */
export const MISMATCH_EXTRA_HON = 2;

// A Plaid call's usual latency, how long a new item's investments stay not ready, and how long the
// extraction of the rest of its history takes (all scaled by SIM_DELAY_FACTOR).
const PLAID_LATENCY_MS = 60;
const NOT_READY_MS = 4_000;
const HISTORICAL_DELAY_MS = 3_000;
const INITIAL_DAYS = 30;

/**
 * Where the simulated webhooks go: the URL the app gave /link/token/create; when that names this
 * machine (a local demo, whose PUBLIC_URL may name another port, e.g. PORT=0), its path on the
 * address the app listens on. As the demo Stripe delivers (app/routes/demo.checkout.$sessionId.tsx).
 */
let webhookBase: string | null = null;
export function deliverPlaidWebhooksTo(base: string) {
  webhookBase = base;
}

async function deliverWebhook(url: string, body: Record<string, unknown>) {
  const given = new URL(url);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(given.hostname);
  const target = local && webhookBase ? new URL(given.pathname, webhookBase) : given;
  const raw = JSON.stringify(body);
  try {
    const res = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", "plaid-verification": await signDemoWebhook(raw) },
      body: raw,
    });
    if (!res.ok) console.error(`plaid simulator: webhook ${body.webhook_code} answered ${res.status}`);
  } catch (error) {
    // Plaid does not retry either; the app's poll (PLAID_POLL_SECONDS) is the fallback.
    console.error(`plaid simulator: webhook ${body.webhook_code} not delivered: ${String(error)}`);
  }
}

/**
 * A simulator of the Plaid API (https://sandbox.plaid.com) for demo mode and tests, answering the
 * calls the real `plaid` SDK makes. Tokens carry their demo identity (see parseDemoToken), so the
 * simulator is stateless except for link tokens (which Link session they belong to) and items
 * repaired through Link update mode. DEMO_LINK_COMPLETE plays Plaid Link's credential step for the
 * local stand-in page (app/routes/demo.plaid-link.tsx).
 *
 * Failure scenarios, chosen by the public token:
 *  - public-sandbox-item-login-required… → /investments/* answer ITEM_LOGIN_REQUIRED (400, ITEM_ERROR)
 *    until the item goes through Link update mode;
 *  - public-sandbox-server-error… → the second page of /investments/transactions/get and
 *    /investments/holdings/get answer 500 (the first page succeeds: nothing may be half-written);
 *  - public-sandbox-malformed… → /investments/holdings/get answers a truncated JSON body;
 *  - public-sandbox-product-not-ready… → right after the link the item's investments are not ready:
 *    the first two /investments/transactions/get calls answer PRODUCT_NOT_READY (as Plaid does
 *    for a minute or two after a link).
 * An item made through Link whose link token named a webhook gets Plaid's asynchronous investments
 * extraction (https://plaid.com/docs/investments/async-update-migration/): the first
 * /investments/transactions/get answers PRODUCT_NOT_READY, and so does every call for
 * NOT_READY_MS after the exchange; then only the last 30 days are there. Once those have been read to
 * the end, the rest of the history is "extracted" (HISTORICAL_DELAY_MS) and an
 * INVESTMENTS_TRANSACTIONS HISTORICAL_UPDATE webhook, signed like Plaid's, is delivered before that
 * last page is answered: so the link import always sees 30 days and always learns of the rest while
 * it runs, and a test sees the same two imports every time. A public token made without Link (a
 * test's shortcut) has no webhook: its item answers the whole history at once, as Plaid does
 * without async_update.
 * Every item: the first /investments/holdings/get after an import's first transactions page answers
 * RATE_LIMIT_EXCEEDED (HTTP 429, INVESTMENT_HOLDINGS_GET_LIMIT), so each import meets a rate limit
 * once and must wait it out.
 *  - public-sandbox-holdings-mismatch… → /investments/holdings/get reports MISMATCH_EXTRA_HON more
 *    Honeywell (HON) shares than the transactions add up to (one disagreement to reconcile).
 * SIM_PLAID_PAGE_SIZE caps the transactions per page below the `count` asked for (Plaid may answer
 * fewer), so tests can make a short history span several pages.
 */
export const PLAID_SANDBOX = "https://sandbox.plaid.com";
export const DEMO_LINK_COMPLETE_URL = `${PLAID_SANDBOX}/demo/link/complete`;
export const DEMO_PLAID_CLIENT_ID = "demo-grader-client-id";
export const DEMO_PLAID_SECRET = "demo-grader-sandbox-secret";

/**
 * The simulator's webhook signing key (ES256). A fixed, demo-only key: tests sign webhooks with it,
 * and /webhook_verification_key/get serves its public half, exactly as Plaid serves its keys.
 */
export const DEMO_WEBHOOK_KID = "demo-plaid-webhook-key-1";
export const DEMO_WEBHOOK_PRIVATE_JWK: JWK = {
  kty: "EC",
  crv: "P-256",
  x: "hRp0jllyv3-Ban9fLjvFxK7RcINQcdR_VvRNQlQPIlc",
  y: "8NLXv7b5cECqYVjAG_5HBmzHS2f8k78Qd6yjO_aeSEo",
  d: "NbmbZL8URQFesMnZ2_Uw0B1xZV6tRSh5vDz3Y2ZBZDE",
};

/** Signs a webhook body the way Plaid does (Plaid-Verification header value). */
export async function signDemoWebhook(rawBody: string, opts: { iat?: number; kid?: string; bodySha256?: string } = {}) {
  const key = await importJWK(DEMO_WEBHOOK_PRIVATE_JWK, "ES256");
  return new SignJWT({
    request_body_sha256: opts.bodySha256 ?? crypto.createHash("sha256").update(rawBody).digest("hex"),
  })
    .setProtectedHeader({ alg: "ES256", kid: opts.kid ?? DEMO_WEBHOOK_KID, typ: "JWT" })
    .setIssuedAt(opts.iat ?? Math.floor(Date.now() / 1000))
    .sign(key);
}

const requestId = () => crypto.randomBytes(8).toString("hex").slice(0, 15);

function plaidError(status: number, error_type: string, error_code: string, error_message: string) {
  return HttpResponse.json(
    {
      error_type,
      error_code,
      error_message,
      display_message: null,
      request_id: requestId(),
      causes: [],
      status,
      documentation_url: `https://plaid.com/docs/errors/`,
      suggested_action: null,
    },
    { status },
  );
}

type Body = Record<string, unknown>;

export function plaidHandlers() {
  // link_token → whose Link session it is, and the item when it was made for update mode.
  const linkTokens = new Map<
    string,
    { clientUserId: string; itemId: string | null; accessToken: string | null; webhook: string | null; expires: number }
  >();
  // A public token made through Link → the webhook its link token named; then the item's extraction.
  const linkWebhooks = new Map<string, string>();
  const extractions = new Map<
    string,
    { webhook: string; exchangedAt: number; askedOnce: boolean; historical: boolean }
  >();
  const repairedItems = new Set<string>();
  const notReadyCalls = new Map<string, number>();
  // Items that asked for their first transactions page (an import starting) since their last 429:
  // their next /investments/holdings/get answers 429, so every import meets one rate limit, once.
  const rateLimitDue = new Set<string>();

  /** Checks the API keys the SDK sends as headers and parses the body. */
  async function authed(request: Request): Promise<{ body: Body } | { error: Response }> {
    const id = request.headers.get("plaid-client-id");
    const secret = request.headers.get("plaid-secret");
    if (id !== DEMO_PLAID_CLIENT_ID || secret !== DEMO_PLAID_SECRET) {
      return { error: plaidError(400, "INVALID_INPUT", "INVALID_API_KEYS", "invalid client_id or secret provided") };
    }
    try {
      return { body: (await request.json()) as Body };
    } catch {
      return { error: plaidError(400, "INVALID_REQUEST", "INVALID_BODY", "body could not be parsed as JSON") };
    }
  }

  function item(accessToken: string) {
    const parsed = parseDemoToken(accessToken)!;
    const itemId = accessToken.split("~")[1] ?? demoItemId(accessToken);
    const loginRequired = parsed.scenario === "item-login-required" && !repairedItems.has(itemId);
    return {
      parsed,
      loginRequired,
      record: {
        item_id: itemId,
        institution_id: DEMO_INSTITUTION.institution_id,
        institution_name: DEMO_INSTITUTION.name,
        webhook: extractions.get(itemId)?.webhook ?? null,
        error: null,
        available_products: ["balance", "identity"],
        billed_products: ["investments"],
        products: ["investments"],
        consented_products: ["investments"],
        consent_expiration_time: null,
        update_type: "background",
      },
    };
  }

  /** Access tokens look like access-sandbox-<public token tail>~<item id>. */
  function accessTokenFrom(body: Body): string | null {
    const token = typeof body.access_token === "string" ? body.access_token : "";
    return token.startsWith("access-sandbox-") && parseDemoToken(token) ? token : null;
  }

  const route = (path: string, handler: (body: Body, request: Request) => Promise<Response> | Response) =>
    http.post(`${PLAID_SANDBOX}${path}`, async ({ request }) => {
      const auth = await authed(request);
      if ("error" in auth) return auth.error;
      await simDelay(PLAID_LATENCY_MS);
      return handler(auth.body, request);
    });

  function withToken(handler: (token: string, body: Body) => Response | Promise<Response>) {
    return (body: Body) => {
      const token = accessTokenFrom(body);
      if (!token)
        return plaidError(
          400,
          "INVALID_INPUT",
          "INVALID_ACCESS_TOKEN",
          "provided access token is in an invalid format",
        );
      return handler(token, body);
    };
  }

  return [
    route("/link/token/create", (body) => {
      const user = body.user as { client_user_id?: unknown } | undefined;
      if (
        typeof user?.client_user_id !== "string" ||
        typeof body.client_name !== "string" ||
        !Array.isArray(body.country_codes)
      ) {
        return plaidError(
          400,
          "INVALID_REQUEST",
          "MISSING_FIELDS",
          "the following required fields are missing: user.client_user_id, client_name, country_codes",
        );
      }
      const access = typeof body.access_token === "string" ? body.access_token : null;
      if (!access && !(Array.isArray(body.products) && body.products.includes("investments"))) {
        return plaidError(400, "INVALID_REQUEST", "INVALID_FIELD", "products must include investments for this client");
      }
      const linkToken = `link-sandbox-${crypto.randomUUID()}`;
      const expires = Date.now() + 4 * 3600_000;
      linkTokens.set(linkToken, {
        clientUserId: user.client_user_id,
        itemId: access ? item(access).record.item_id : null,
        accessToken: access,
        webhook: typeof body.webhook === "string" ? body.webhook : null,
        expires,
      });
      return HttpResponse.json({
        link_token: linkToken,
        expiration: new Date(expires).toISOString(),
        request_id: requestId(),
      });
    }),

    // Stand-in for the user typing credentials into Plaid Link (not a Plaid API call).
    http.post(DEMO_LINK_COMPLETE_URL, async ({ request }) => {
      const body = (await request.json()) as { link_token?: string; username?: string; password?: string };
      const session = body.link_token ? linkTokens.get(body.link_token) : undefined;
      if (!session || session.expires < Date.now())
        return plaidError(400, "INVALID_INPUT", "INVALID_LINK_TOKEN", "link token is invalid or expired");
      const username = String(body.username ?? "").trim();
      if (!DEMO_USERNAME_RE.test(username) || body.password !== DEMO_PASSWORD) {
        return plaidError(400, "ITEM_ERROR", "INVALID_CREDENTIALS", "the provided credentials were not correct");
      }
      if (session.itemId) {
        // Update mode: the item's login is repaired; the access token stays the same.
        repairedItems.add(session.itemId);
        return HttpResponse.json({
          public_token: null,
          update: true,
          client_user_id: session.clientUserId,
          item_id: session.itemId,
        });
      }
      const publicToken = `public-sandbox-${username}-${crypto.randomBytes(6).toString("hex")}`;
      if (session.webhook) linkWebhooks.set(publicToken, session.webhook);
      return HttpResponse.json({ public_token: publicToken, update: false, client_user_id: session.clientUserId });
    }),

    route("/item/public_token/exchange", (body) => {
      const token = typeof body.public_token === "string" ? body.public_token : "";
      if (!token.startsWith("public-sandbox-") || !parseDemoToken(token)) {
        return plaidError(
          400,
          "INVALID_INPUT",
          "INVALID_PUBLIC_TOKEN",
          "provided public token is in an invalid format",
        );
      }
      const itemId = demoItemId(token);
      const webhook = linkWebhooks.get(token);
      if (webhook) {
        linkWebhooks.delete(token);
        extractions.set(itemId, { webhook, exchangedAt: Date.now(), askedOnce: false, historical: false });
      }
      return HttpResponse.json({
        access_token: `access-sandbox-${token.slice("public-sandbox-".length)}~${itemId}`,
        item_id: itemId,
        request_id: requestId(),
      });
    }),

    route(
      "/accounts/get",
      withToken((token) => {
        const { parsed, record } = item(token);
        return HttpResponse.json({
          accounts: demoBrokerage(parsed.username).accounts,
          item: record,
          request_id: requestId(),
        });
      }),
    ),

    route(
      "/item/get",
      withToken((token) => {
        const { record, loginRequired } = item(token);
        const error = loginRequired
          ? {
              error_type: "ITEM_ERROR",
              error_code: "ITEM_LOGIN_REQUIRED",
              error_message: "the login details of this item have changed",
            }
          : null;
        return HttpResponse.json({ item: { ...record, error }, status: null, request_id: requestId() });
      }),
    ),

    route("/institutions/get_by_id", (body) => {
      if (body.institution_id !== DEMO_INSTITUTION.institution_id)
        return plaidError(400, "INVALID_INPUT", "INVALID_INSTITUTION", "invalid institution_id provided");
      return HttpResponse.json({
        institution: {
          institution_id: DEMO_INSTITUTION.institution_id,
          name: DEMO_INSTITUTION.name,
          products: ["investments", "transactions"],
          country_codes: ["US"],
          url: null,
          logo: null,
          routing_numbers: [],
          oauth: false,
          status: null,
          primary_color: null,
          dtc_numbers: null,
        },
        request_id: requestId(),
      });
    }),

    route(
      "/investments/transactions/get",
      withToken(async (token, body) => {
        const { parsed, loginRequired, record } = item(token);
        if (loginRequired)
          return plaidError(
            400,
            "ITEM_ERROR",
            "ITEM_LOGIN_REQUIRED",
            "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information",
          );
        const start = String(body.start_date ?? "");
        const end = String(body.end_date ?? "");
        if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || start > end) {
          return plaidError(
            400,
            "INVALID_REQUEST",
            "INVALID_FIELD",
            "start_date and end_date must be YYYY-MM-DD, start before end",
          );
        }
        const options = (body.options ?? {}) as { count?: number; offset?: number; account_ids?: string[] };
        const count = options.count ?? 100;
        const offset = options.offset ?? 0;
        if (!Number.isInteger(count) || count < 1 || count > 500 || !Number.isInteger(offset) || offset < 0) {
          return plaidError(
            400,
            "INVALID_REQUEST",
            "INVALID_FIELD",
            "options.count must be 1..500 and options.offset ≥ 0",
          );
        }
        if (parsed.scenario === "server-error" && offset > 0)
          return plaidError(500, "API_ERROR", "INTERNAL_SERVER_ERROR", "an unexpected error occurred");
        if (parsed.scenario === "product-not-ready") {
          const calls = (notReadyCalls.get(record.item_id) ?? 0) + 1;
          notReadyCalls.set(record.item_id, calls);
          if (calls <= 2)
            return plaidError(
              400,
              "ITEM_ERROR",
              "PRODUCT_NOT_READY",
              "the requested product is not yet ready. please provide a webhook or try the request again later",
            );
        }
        const extraction = extractions.get(record.item_id);
        if (extraction && !extraction.historical) {
          const notReady =
            !extraction.askedOnce || Date.now() < extraction.exchangedAt + NOT_READY_MS * simDelayFactor();
          extraction.askedOnce = true;
          if (notReady)
            return plaidError(
              400,
              "ITEM_ERROR",
              "PRODUCT_NOT_READY",
              "the requested product is not yet ready. please provide a webhook or try the request again later",
            );
        }
        if (offset === 0) rateLimitDue.add(record.item_id);
        const pageSize = Math.min(count, Number(process.env.SIM_PLAID_PAGE_SIZE) || count);
        const brokerage = demoBrokerage(parsed.username);
        const accountIds = options.account_ids ?? brokerage.accounts.map((a) => a.account_id);
        let all = brokerage.transactions.filter(
          (t) => t.date >= start && t.date <= end && accountIds.includes(t.account_id),
        );
        if (extraction && !extraction.historical) {
          const from = new Date(Date.parse(`${end}T00:00:00Z`) - INITIAL_DAYS * 86_400_000).toISOString().slice(0, 10);
          all = all.filter((t) => t.date >= from);
          if (offset + pageSize >= all.length) {
            // The last page of the first 30 days: the rest is extracted, and Plaid says so.
            extraction.historical = true;
            await simDelay(HISTORICAL_DELAY_MS);
            await deliverWebhook(extraction.webhook, {
              webhook_type: "INVESTMENTS_TRANSACTIONS",
              webhook_code: "HISTORICAL_UPDATE",
              item_id: record.item_id,
              error: null,
              new_investments_transactions: brokerage.transactions.length,
              canceled_investments_transactions: 0,
              environment: "sandbox",
            });
          }
        }
        return HttpResponse.json({
          item: record,
          accounts: brokerage.accounts.filter((a) => a.type === "investment" && accountIds.includes(a.account_id)),
          securities: brokerage.securities,
          investment_transactions: all.slice(offset, offset + pageSize),
          total_investment_transactions: all.length,
          is_investments_fallback_item: false,
          request_id: requestId(),
        });
      }),
    ),

    route(
      "/investments/holdings/get",
      withToken((token, body) => {
        const { parsed, loginRequired, record } = item(token);
        if (loginRequired)
          return plaidError(
            400,
            "ITEM_ERROR",
            "ITEM_LOGIN_REQUIRED",
            "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information",
          );
        if (rateLimitDue.delete(record.item_id)) {
          return plaidError(
            429,
            "RATE_LIMIT_EXCEEDED",
            "INVESTMENT_HOLDINGS_GET_LIMIT",
            "rate limit exceeded for attempts to access this item. please try again later",
          );
        }
        if (parsed.scenario === "server-error")
          return plaidError(500, "API_ERROR", "INTERNAL_SERVER_ERROR", "an unexpected error occurred");
        if (parsed.scenario === "malformed") {
          return new HttpResponse('{"accounts":[{"account_id":"x","balances":{"current":', {
            status: 200,
            headers: { "content-type": "application/json" },
          });
        }
        const brokerage = demoBrokerage(parsed.username);
        const options = (body.options ?? {}) as { account_ids?: string[] };
        const accountIds = options.account_ids ?? brokerage.accounts.map((a) => a.account_id);
        const hon = brokerage.securities.find((sec) => sec.ticker_symbol === "HON")!;
        return HttpResponse.json({
          item: record,
          accounts: brokerage.accounts.filter((a) => a.type === "investment" && accountIds.includes(a.account_id)),
          securities: brokerage.securities,
          holdings: brokerage.holdings
            .filter((h) => accountIds.includes(h.account_id))
            .map((h) =>
              parsed.scenario === "holdings-mismatch" && h.security_id === hon.security_id
                ? { ...h, quantity: h.quantity + MISMATCH_EXTRA_HON }
                : h,
            ),
          is_investments_fallback_item: false,
          request_id: requestId(),
        });
      }),
    ),

    route("/webhook_verification_key/get", (body) => {
      if (body.key_id !== DEMO_WEBHOOK_KID)
        return plaidError(400, "INVALID_INPUT", "INVALID_WEBHOOK_VERIFICATION_KEY_ID", "invalid key_id provided");
      const { d: _private, ...pub } = DEMO_WEBHOOK_PRIVATE_JWK;
      return HttpResponse.json({
        key: { ...pub, alg: "ES256", kid: DEMO_WEBHOOK_KID, use: "sig", created_at: 1_700_000_000, expired_at: null },
        request_id: requestId(),
      });
    }),
  ];
}

/** For tests: the account id behind a demo username (fingerprint plaid:<institution>:<account>). */
export function demoFingerprint(username: string) {
  return `plaid:${DEMO_INSTITUTION.institution_id}:${demoAccountIds(username).brokerage}`;
}
export { DEMO_HISTORY_END };

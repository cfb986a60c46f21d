import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { JOURNAL_QUERY } from "~/analytics/journal";
import { WALLET_KINDS } from "~/lib/account-kinds";
import * as S from "./api-schemas.server";
import { LEADERBOARD_QUERY, LeaderboardFilters, MARKET_TRADES_QUERY } from "../community/market.server";
import { CLUBS_QUERY } from "../community/clubs.server";
import { NOTIFICATIONS_QUERY } from "../community/notifications.server";
import { HOLDINGS_QUERY, TRADES_QUERY } from "../grades/portfolio.server";

// The JSON API's OpenAPI 3.1 document, generated from the zod schemas the routes validate with
// (api-schemas.server.ts and the paging/journal schemas): served at GET /api/openapi.json.

export const apiRegistry = new OpenAPIRegistry();
apiRegistry.registerComponent("securitySchemes", "session", {
  type: "apiKey",
  in: "cookie",
  name: "grader_session",
  description: "The web app's session cookie (set by /signin, /signup, POST /api/user/login and /api/user/register).",
});
apiRegistry.registerComponent("securitySchemes", "bearer", {
  type: "http",
  scheme: "bearer",
  description: "The auth_token from POST /api/user/login or /api/user/register.",
});

type Responses = RouteConfig["responses"];
const json = (schema: z.ZodTypeAny, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const err = (description: string) => json(S.ApiError, description);
const retryAfter = z.object({
  "Retry-After": z.string().openapi({ description: "Seconds to wait before trying again." }),
});
const BUSY = {
  description:
    "Busy: every render slot or database connection is taken; try again after Retry-After seconds (docs/PERFORMANCE.md).",
  headers: retryAfter,
  content: { "text/plain": { schema: z.string() } },
};

/** One route: a signed-in route gets the security requirement and its 401; every route may answer 503. */
function route(config: Omit<RouteConfig, "responses"> & { responses: Responses; signedIn?: boolean }) {
  const { signedIn = true, responses, ...rest } = config;
  apiRegistry.registerPath({
    ...rest,
    ...(signedIn ? { security: [{ session: [] }, { bearer: [] }] } : { security: [] }),
    responses: {
      ...responses,
      ...(signedIn ? { 401: err("Not signed in, or the token expired or was revoked.") } : {}),
      503: BUSY,
    },
  });
}
const body = (schema: z.ZodTypeAny, required = true) => ({
  required,
  content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } },
});
const tooMany = {
  description: "Rate limited; Retry-After says when to try again.",
  headers: retryAfter,
  content: { "application/json": { schema: S.ApiError } },
};
const bad = err("The body or query failed validation: `error.fields` names each problem.");

// Accounts
route({
  method: "post",
  path: "/api/user/register",
  tags: ["Accounts"],
  signedIn: false,
  request: { body: body(S.RegisterBody) },
  responses: {
    201: json(S.AuthToken, "Signed up and signed in."),
    400: bad,
    409: err("The email or username cannot be used."),
    429: tooMany,
  },
});
route({
  method: "post",
  path: "/api/user/login",
  tags: ["Accounts"],
  signedIn: false,
  request: { body: body(S.LoginBody) },
  responses: { 200: json(S.AuthToken, "Signed in."), 400: bad, 401: err("Wrong email or password."), 429: tooMany },
});
route({
  method: "get",
  path: "/api/user/info",
  tags: ["Accounts"],
  responses: { 200: json(S.envelope(S.PublicUser), "The caller's user record.") },
});

// Wallets
for (const chain of WALLET_KINDS) {
  route({
    method: "post",
    path: `/api/${chain}/nonce`,
    tags: ["Wallets"],
    request: { body: body(S.WalletNonceBody) },
    responses: { 200: json(S.WalletNonce, "The sign-in message to sign."), 400: bad },
  });
  route({
    method: "post",
    path: `/api/${chain}/wallet`,
    tags: ["Wallets"],
    request: { body: body(S.WalletLinkBody) },
    responses: {
      200: json(S.WalletLinked, "Linked before: re-imported."),
      201: json(S.WalletLinked, "Linked now; the import runs as a job."),
      400: err("Not an address of this chain, or a failed proof."),
      409: err("Another user holds this wallet (code 406)."),
      429: { ...tooMany, description: "Today's link limit is reached; nothing linked." },
    },
  });
  route({
    method: "post",
    path: `/api/${chain}/evaluation`,
    tags: ["Grades"],
    responses: { 200: json(S.EvaluationResult, "The grade, or the product's result code and message.") },
  });
}

// Interactive Brokers (a Flex Web Service token)
route({
  method: "post",
  path: "/api/ibkr/wallet",
  tags: ["Brokers"],
  request: { body: body(S.IbkrLinkBody) },
  responses: {
    200: json(S.IbkrLinked, "Linked before: its token replaced, re-imported."),
    201: json(S.IbkrLinked, "Linked now; the import walks the history back a year per job."),
    400: err("A token or query IBKR refused (expired, invalid, IP-restricted, unknown query), said in words."),
    409: err("Another user holds this IBKR account (code 406)."),
    429: { ...tooMany, description: "Today's link limit is reached; nothing linked." },
    502: err("IBKR did not answer, or is still generating the statement: try again in a minute."),
  },
});
route({
  method: "post",
  path: "/api/ibkr/evaluation",
  tags: ["Grades"],
  responses: { 200: json(S.EvaluationResult, "The grade, or the product's result code and message.") },
});

// Exchanges (a read-only API key)
route({
  method: "post",
  path: "/api/exchange/wallet",
  tags: ["Exchanges"],
  request: { body: body(S.ExchangeLinkBody) },
  responses: {
    200: json(S.ExchangeLinked, "Linked before: its key replaced, re-imported."),
    201: json(S.ExchangeLinked, "Linked now; the import runs as jobs."),
    400: err("A key that can trade or withdraw (the permission to remove is named), or one the exchange refused."),
    409: err("Another user holds this exchange account (code 406)."),
    429: { ...tooMany, description: "Today's link limit is reached; nothing linked." },
    502: err("The exchange did not answer."),
  },
});
route({
  method: "post",
  path: "/api/exchange/evaluation",
  tags: ["Grades"],
  responses: { 200: json(S.EvaluationResult, "The grade, or the product's result code and message.") },
});

// Statements (a file, self-reported)
route({
  method: "post",
  path: "/api/statements",
  tags: ["Statements"],
  request: { body: { required: true, content: { "multipart/form-data": { schema: S.StatementUpload } } } },
  responses: {
    200: json(S.StatementUploaded, "The statement replaced (or the same file again: unchanged)."),
    201: json(S.StatementUploaded, "The statement account made; its import and grade run as jobs."),
    400: json(S.StatementRefused, 'No file, or lines at fault (each named: "line 17: price is not a number").'),
    413: json(S.StatementRefused, "Larger than 5 MB."),
    415: json(S.StatementRefused, "A zip or gzip, not UTF-8, or a format not read (the formats accepted are named)."),
    429: { ...tooMany, description: "Today's link limit is reached; nothing stored." },
  },
});

// Brokers (Plaid)
route({
  method: "post",
  path: "/api/finance/plaid/evaluation",
  tags: ["Grades"],
  responses: { 200: json(S.EvaluationResult, "The grade, or the product's result code and message.") },
});
route({
  method: "post",
  path: "/api/finance/plaid/link-token",
  tags: ["Brokers"],
  request: { body: body(S.LinkTokenBody, false) },
  responses: {
    200: json(S.LinkToken, "A token for Plaid Link."),
    400: bad,
    404: err("Not your linked account."),
    429: tooMany,
    502: err("Plaid failed."),
  },
});
route({
  method: "post",
  path: "/api/finance/plaid/exchange-public-token",
  tags: ["Brokers"],
  request: { body: body(S.ExchangeTokenBody) },
  responses: {
    201: json(S.PlaidLinked, "Linked; each account's import runs as a job."),
    400: err("Invalid body or public token."),
    409: err("An account belongs to another user (code 406); nothing linked."),
    422: err("The login has no investment account."),
    429: { ...tooMany, description: "Today's link limit is reached; nothing linked." },
    502: err("Plaid failed."),
    504: err("Plaid did not answer in time."),
  },
});
route({
  method: "get",
  path: "/api/finance/plaid/accounts",
  tags: ["Brokers"],
  responses: { 200: json(S.LinkedAccounts, "The caller's linked accounts (all kinds) with ledger sizes.") },
});
route({
  method: "post",
  path: "/api/finance/plaid/import",
  tags: ["Brokers"],
  request: { body: body(S.ImportBody) },
  responses: { 202: json(S.ImportStarted, "Re-import queued."), 400: bad, 404: err("Not your linked account.") },
});
route({
  method: "post",
  path: "/api/finance/plaid/webhook",
  tags: ["Webhooks"],
  signedIn: false,
  description: "Plaid only, authenticated by the Plaid-Verification JWT.",
  request: {
    headers: z.object({ "plaid-verification": z.string() }),
    body: { content: { "application/json": { schema: z.record(z.unknown()) } } },
  },
  responses: { 200: json(S.PlaidWebhookAnswer, "Handled."), 400: err("Failed verification.") },
});

// Imports and portfolio
route({
  method: "get",
  path: "/api/portal/imports",
  tags: ["Portfolio"],
  responses: { 200: json(S.Imports, "The caller's imports, newest first.") },
});
const portfolioQuery = (paging: z.AnyZodObject) => paging.merge(S.PortfolioOwnerQuery);
route({
  method: "get",
  path: "/api/portal/trades",
  tags: ["Portfolio"],
  request: { query: portfolioQuery(TRADES_QUERY) },
  responses: { 200: json(S.Trades, "A page of trades."), 400: bad, 404: err("No such trader.") },
});
route({
  method: "get",
  path: "/api/portal/holdings",
  tags: ["Portfolio"],
  request: { query: portfolioQuery(HOLDINGS_QUERY) },
  responses: { 200: json(S.Holdings, "A page of holdings."), 400: bad, 404: err("No such trader.") },
});
route({
  method: "get",
  path: "/api/portal/trades.csv",
  tags: ["Portfolio"],
  responses: { 200: { description: "Every trade of the caller.", content: { "text/csv": { schema: z.string() } } } },
});
route({
  method: "get",
  path: "/api/portal/round_trips",
  tags: ["Portfolio"],
  request: { query: JOURNAL_QUERY },
  responses: { 200: json(S.RoundTrips, "A page of the caller's journal."), 400: bad },
});
route({
  method: "get",
  path: "/api/portal/round_trips.csv",
  tags: ["Portfolio"],
  request: { query: JOURNAL_QUERY },
  responses: {
    200: { description: "The journal's matching rows.", content: { "text/csv": { schema: z.string() } } },
    400: bad,
  },
});
route({
  method: "get",
  path: "/api/portal/ledger",
  tags: ["Grades"],
  request: { query: S.LedgerQuery },
  responses: {
    200: json(S.Ledger, "The ledger a grade of the caller was computed from."),
    400: bad,
    404: err("No such grade with a stored ledger."),
  },
});

// Community
route({
  method: "get",
  path: "/api/portal/market/traders",
  tags: ["Community"],
  request: { query: LEADERBOARD_QUERY.merge(LeaderboardFilters) },
  responses: { 200: json(S.Leaderboard, "A page of the leaderboard."), 400: bad },
});
route({
  method: "get",
  path: "/api/portal/market/trades",
  tags: ["Community"],
  request: { query: MARKET_TRADES_QUERY },
  responses: { 200: json(S.MarketTrades, "Recent trades of traders who share them."), 400: bad },
});
route({
  method: "get",
  path: "/api/portal/seasons",
  tags: ["Community"],
  responses: {
    200: json(S.Seasons, "The running leaderboard season's standings and the past seasons' winners (GRADING.md §7b)."),
  },
});
route({
  method: "get",
  path: "/api/portal/clubs",
  tags: ["Community"],
  request: { query: CLUBS_QUERY },
  responses: {
    200: json(S.Clubs, "Trader clubs, most members first, searched by name, description and markets (`q`)."),
    400: bad,
  },
});
route({
  method: "get",
  path: "/api/portal/notifications",
  tags: ["Community"],
  request: { query: NOTIFICATIONS_QUERY },
  responses: {
    200: json(S.Notifications, "A page of the caller's notifications, newest first; meta.unread is the bell's count."),
    400: bad,
  },
});
route({
  method: "get",
  path: "/api/portal/search/trader",
  tags: ["Community"],
  request: { query: S.SearchQuery },
  responses: { 200: json(S.TraderSearch, "At most 20 traders, most relevant first."), 400: bad },
});

// Live trade alerts
route({
  method: "get",
  path: "/api/portal/trade_alerts/settings",
  tags: ["Community"],
  responses: { 200: json(S.TradeAlertSettings, "Whether the caller shares trades live, when and with which sizes.") },
});
route({
  method: "patch",
  path: "/api/portal/trade_alerts/settings",
  tags: ["Community"],
  request: { body: body(S.TradeAlertSettingsBody) },
  responses: { 200: json(S.TradeAlertSettings, "The settings as saved."), 400: bad },
});
route({
  method: "get",
  path: "/api/portal/trade_alerts/subscriptions",
  tags: ["Community"],
  responses: { 200: json(S.AlertSubscriptions, "The traders whose live trade alerts the caller gets, newest first.") },
});
route({
  method: "post",
  path: "/api/portal/trade_alerts/subscriptions",
  tags: ["Community"],
  request: { body: body(S.AlertSubscriptionBody) },
  responses: {
    201: json(S.AlertSubscribed, "Subscribed (again: no change)."),
    400: err("A bad body, or the caller's own id."),
    403: err("A block, either way."),
    404: err("No such trader."),
    409: err("The trader does not share trades live, or the caller does not follow them."),
  },
});
route({
  method: "delete",
  path: "/api/portal/trade_alerts/subscriptions",
  tags: ["Community"],
  request: { body: body(S.AlertSubscriptionBody) },
  responses: {
    200: json(S.AlertSubscribed, "No more alerts of this trader (also when there was no subscription)."),
    400: bad,
  },
});

// Web Push
route({
  method: "get",
  path: "/api/portal/push/subscriptions",
  tags: ["Community"],
  responses: { 200: json(S.PushKey, "The key a browser subscribes with, and the caller's subscribed browsers.") },
});
route({
  method: "post",
  path: "/api/portal/push/subscriptions",
  tags: ["Community"],
  request: { body: body(S.PushSubscriptionBody) },
  responses: { 201: json(S.PushSaved, "This browser now gets the kinds chosen for push."), 400: bad },
});
route({
  method: "delete",
  path: "/api/portal/push/subscriptions",
  tags: ["Community"],
  request: { body: body(S.PushUnsubscribeBody) },
  responses: {
    200: json(S.PushSaved, "This browser gets no more pushes."),
    400: bad,
    404: err("Not one of the caller's subscribed browsers."),
  },
});

// Sharing, points, public records
route({
  method: "post",
  path: "/api/airdrop/share",
  tags: ["Sharing"],
  responses: { 200: json(S.ShareRecorded, "The share task, credited once."), 409: err("No grade yet.") },
});
route({
  method: "post",
  path: "/api/share/image/{userId}",
  tags: ["Sharing"],
  request: { params: S.ShareImageParams, query: S.ShareImageQuery, body: body(S.ShareImageBody, false) },
  responses: {
    200: json(S.ShareImage, "The card's immutable URL."),
    400: bad,
    404: err("No such trader, or no grade yet."),
  },
});
route({
  method: "get",
  path: "/api/share/proxy",
  tags: ["Sharing"],
  signedIn: false,
  request: { query: S.ShareProxyQuery },
  responses: {
    200: {
      description: "The card as a download.",
      content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } },
    },
    400: bad,
    404: err("No such card."),
  },
});
route({
  method: "get",
  path: "/api/grades/log",
  tags: ["Grades"],
  signedIn: false,
  request: { query: S.GradeLogQuery },
  responses: { 200: json(S.GradeLog, "The public grade log from the entry after `after`."), 400: bad },
});
route({
  method: "get",
  path: "/api/page-views",
  tags: ["Content"],
  signedIn: false,
  request: { query: S.PageViewsQuery },
  responses: { 200: json(S.PageViews, "Views of a tracked public page."), 400: bad },
});

// Billing
route({
  method: "post",
  path: "/api/stripe/create_stripe_session",
  tags: ["Billing"],
  request: { body: body(S.CheckoutBody) },
  responses: {
    200: json(S.CheckoutSession, "An embedded Checkout session."),
    400: bad,
    429: tooMany,
    502: err("Stripe failed."),
  },
});
route({
  method: "post",
  path: "/api/stripe/webhook",
  tags: ["Webhooks"],
  signedIn: false,
  description: "Stripe only, authenticated by the Stripe-Signature header over the raw body.",
  request: {
    headers: z.object({ "stripe-signature": z.string() }),
    body: { content: { "application/json": { schema: z.record(z.unknown()) } } },
  },
  responses: { 200: json(S.StripeWebhookAnswer, "Handled (or a duplicate)."), 400: err("Invalid signature.") },
});

route({
  method: "get",
  path: "/api/openapi.json",
  tags: ["Meta"],
  signedIn: false,
  responses: {
    200: { description: "This document.", content: { "application/json": { schema: z.record(z.unknown()) } } },
  },
});

let document: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;
/** The document (generated once per process: the schemas never change while it runs). */
export function openApiDocument() {
  document ??= new OpenApiGeneratorV31(apiRegistry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Grader JSON API",
      version: "1",
      description:
        "Every answer is JSON: `{ data, meta? }` on success, `{ error: { message, fields? } }` with a 4xx on failure (docs/API.md). Signed-in routes take the session cookie or a bearer token; browsers' cross-site POSTs are refused by the Origin check.",
    },
  });
  return document;
}

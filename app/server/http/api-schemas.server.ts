import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { email, password } from "~/lib/auth-schemas";
import { ExchangeKeySchema } from "~/lib/exchange-schemas";
import { IbkrFlexSchema } from "~/lib/ibkr-schemas";
import { ACCOUNT_KINDS, TIERS } from "~/lib/vocabulary";
import { NOTIFICATION_KINDS } from "~/lib/notifications";
import { ALERT_DELAYS } from "~/lib/trade-alerts";
import { username } from "~/lib/profile-schemas";
import { idSchema, MAX_ID } from "./guards.server";
import { isTrackedPath } from "../community/page-views.server";
import { normalizeKeyword, SEARCH_MIN_CHARS } from "../community/search.server";
import { PushSubscriptionInput } from "../community/push.server";

// The JSON API's schemas, one source of truth: the routes validate their input with these and
// openapi.server.ts generates /api/openapi.json from the same objects (request and response).
// `.openapi()` only adds documentation; it never changes what a schema accepts.
extendZodWithOpenApi(z);

/** An id as the routes read it (toId: 1…2^31−1, a number or a string of digits). */
const id = idSchema.openapi({ type: "integer", minimum: 1, maximum: MAX_ID });
const isoTime = z.string().openapi({ format: "date-time" });

// ---------------------------------------------------------------------------------------------
// Requests

const name = z.string().trim().min(1).max(60).optional();
// Known extras are validated and stored; unknown ones are ignored (zod strips them).
export const RegisterBody = z
  .object({ email, password, username: username.optional(), first_name: name, last_name: name })
  .openapi("RegisterBody");
export const LoginBody = z.object({ email, password: z.string().min(1).max(1024) }).openapi("LoginBody");

export const WalletNonceBody = z
  .object({ wallet_address: z.string({ required_error: "Required." }).min(1, "Required.").max(100) })
  .openapi("WalletNonceBody");
export const WalletLinkBody = z
  .object({
    wallet_address: z.string({ required_error: "Required." }).min(1, "Required.").max(100),
    message: z
      .string()
      .max(4000)
      .optional()
      .openapi({ description: "The sign-in message exactly as POST /api/{chain}/nonce issued it." }),
    signature: z
      .string()
      .max(400)
      .optional()
      .openapi({ description: "EVM: personal_sign (0x + 130 hex); Solana: base58 ed25519 signature." }),
  })
  .openapi("WalletLinkBody");

export const LinkTokenBody = z
  .object({ linked_account_id: id.optional() })
  .openapi("LinkTokenBody", { description: "Optional: a linked account of yours, for Link update mode (re-login)." });
export const ExchangeTokenBody = z
  .object({ public_token: z.string().trim().min(1, "is required").max(300) })
  .openapi("ExchangeTokenBody");
export const ImportBody = z.object({ linked_account_id: id }).openapi("ImportBody");
export const CheckoutBody = z.object({ price_id: z.string().min(1).max(200) }).openapi("CheckoutBody");

/** `format` of a card: anything but "story" is the 1200×630 link card (parseCardFormat). */
const cardFormat = z
  .unknown()
  .transform((v) => (v === "story" ? ("story" as const) : ("link" as const)))
  .openapi({ type: "string", enum: ["link", "story"], default: "link" });
export const ShareImageQuery = z.object({ format: cardFormat.optional() });
export const ShareImageBody = z.object({ format: cardFormat.optional() }).openapi("ShareImageBody");
export const ShareImageParams = z.object({ userId: z.string().openapi({ description: "The trader's user id." }) });

export const GradeLogQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, "use the last seq you have seen (a whole number, 0 for the start).")
    .default("0")
    .transform(Number)
    .openapi({ type: "integer", minimum: 0, description: "The last seq you have seen (0 or absent: from the start)." }),
});
export const PageViewsQuery = z.object({
  path: z
    .string({ required_error: "must be a tracked public page such as /blogs/{id}." })
    .refine(isTrackedPath, "must be a tracked public page such as /blogs/{id}."),
});
export const LedgerQuery = z.object({
  evaluation_id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "must be a positive whole number.")
    .transform(Number)
    .refine((n) => n <= MAX_ID, "must be a positive whole number.")
    .optional()
    .openapi({
      type: "integer",
      minimum: 1,
      maximum: MAX_ID,
      description: "An older grade of yours (default: the current one).",
    }),
});
export const PortfolioOwnerQuery = z.object({
  user_id: id.optional().openapi({ description: "Another trader whose profile is public (default: you)." }),
});
export const SearchQuery = z.object({
  keyword: z
    .string({ required_error: `type at least ${SEARCH_MIN_CHARS} characters.` })
    .transform(normalizeKeyword)
    .refine((k) => k.length >= SEARCH_MIN_CHARS, `type at least ${SEARCH_MIN_CHARS} characters.`)
    .openapi({ type: "string", minLength: SEARCH_MIN_CHARS, maxLength: 100 }),
});
export const ShareProxyQuery = z.object({
  file_url: z
    .string({ required_error: "must be the URL of one of our performance cards." })
    .max(300)
    .openapi({ format: "uri" }),
});

// ---------------------------------------------------------------------------------------------
// Responses

/** `{ data }`, with `meta` for paged lists. */
export function envelope<T extends z.ZodTypeAny, M extends z.ZodTypeAny = z.ZodUndefined>(data: T, meta?: M) {
  return meta ? z.object({ data, meta }) : z.object({ data });
}
export const PageMeta = z
  .object({ page: z.number().int(), page_size: z.number().int(), total: z.number().int() })
  .openapi("PageMeta");

export const ApiError = z
  .object({
    error: z.object({
      message: z.string().openapi({ description: "What went wrong, for a person." }),
      fields: z
        .record(z.string())
        .optional()
        .openapi({ description: "Per-field problems of a body or query that failed validation." }),
      code: z
        .union([z.string(), z.number()])
        .optional()
        .openapi({ description: "A provider's error code (Plaid) or the product's 406." }),
      relogin_required: z.boolean().optional(),
    }),
    code: z.number().int().optional().openapi({
      description:
        "the product's result code where a client tests body.code (406: the account belongs to another user).",
    }),
    message: z.string().optional(),
  })
  .openapi("Error");

export const AuthToken = envelope(z.object({ auth_token: z.string() })).openapi("AuthToken");

export const PublicUser = z
  .object({
    id: z.number().int(),
    username: z.string().nullable(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    name: z.string().nullable(),
    avatar: z.string().nullable(),
    platform_name: z.string().nullable(),
    is_star: z.boolean(),
    email_verified: z.boolean(),
    onboarded: z.boolean(),
  })
  .openapi("User");

export const WalletNonce = envelope(z.object({ message: z.string(), nonce: z.string(), expires_at: isoTime })).openapi(
  "WalletNonce",
);
const accountKind = z.enum(ACCOUNT_KINDS);
const accountStatus = z.enum(["active", "importing", "relogin_required", "error"]);
export const WalletLinked = envelope(
  z.object({
    linked_account_id: z.number().int(),
    kind: accountKind,
    wallet_address: z.string(),
    fingerprint: z.string(),
    label: z.string(),
    created: z.boolean(),
    demo: z.boolean(),
    status: z.literal("importing"),
    import_id: z.number().int(),
  }),
).openapi("WalletLinked");

export const ExchangeLinkBody = ExchangeKeySchema.openapi("ExchangeLinkBody", {
  description:
    "A read-only API key of the exchange (and its secret; OKX's passphrase). Refused (400) when it can trade or withdraw.",
});

export const IbkrLinkBody = IbkrFlexSchema.openapi("IbkrLinkBody", {
  description:
    "An Interactive Brokers Flex Web Service token and the Query ID of an Activity Flex Query (XML output). In demo mode the token `demo` with any query id links the demo account.",
});

export const IbkrLinked = envelope(
  z.object({
    linked_account_id: z.number().int(),
    kind: accountKind,
    label: z.string(),
    created: z.boolean(),
    demo: z.boolean(),
    status: z.literal("importing"),
    import_id: z.number().int(),
  }),
).openapi("IbkrLinked");

export const ExchangeLinked = envelope(
  z.object({
    linked_account_id: z.number().int(),
    kind: accountKind,
    exchange: z.string(),
    label: z.string(),
    created: z.boolean(),
    demo: z.boolean(),
    status: z.literal("importing"),
    import_id: z.number().int(),
  }),
).openapi("ExchangeLinked");

export const StatementUpload = z
  .object({
    file: z
      .string()
      .openapi({ format: "binary", description: "The statement: CSV in Grader's template, at most 5 MB." }),
  })
  .openapi("StatementUpload");
export const StatementUploaded = envelope(
  z.object({
    linked_account_id: z.number().int(),
    kind: z.literal("statement"),
    format: z.string(),
    rows: z.number().int(),
    trades: z.number().int(),
    cash_flows: z.number().int(),
    events: z.number().int(),
    created: z.boolean(),
    unchanged: z.boolean().openapi({ description: "The same file as the last upload: nothing changed." }),
    self_reported: z.literal(true),
    graded: z.boolean().openapi({ description: "Whether the grade reads this statement (no other account linked)." }),
    status: z.enum(["importing", "unchanged"]),
    import_id: z.number().int().nullable(),
  }),
).openapi("StatementUploaded");
const StatementRefused = z
  .object({ error: z.object({ message: z.string(), lines: z.array(z.string()).optional() }) })
  .openapi("StatementRefused");
export { StatementRefused };

export const EvaluationResult = envelope(
  z.union([
    z.object({
      code: z.union([z.literal(200), z.literal(2002)]),
      evaluation_id: z.number().int(),
      tier: z.string().nullable(),
      score: z.number().nullable(),
      verification_code: z.string(),
      self_reported: z
        .boolean()
        .openapi({ description: "Graded from uploaded statements, not checked with a provider (DECISIONS 198)." }),
    }),
    z.object({
      code: z.number().int().openapi({
        description:
          "401 free tries used, 402/403 not allowed, 406 held by another user, 409 nothing to grade, 425 still importing, 502 provider failed.",
      }),
      message: z.string(),
    }),
  ]),
).openapi("EvaluationResult", { description: "HTTP 200 with the product's result code in the body." });

export const LinkToken = envelope(z.object({ link_token: z.string() })).openapi("LinkToken");
export const PlaidLinked = envelope(
  z.object({
    message: z.string(),
    accounts: z.array(
      z.object({
        id: z.number().int(),
        label: z.string(),
        institution_name: z.string().nullable(),
        created: z.boolean(),
        status: z.literal("importing"),
        import_id: z.number().int(),
      }),
    ),
  }),
).openapi("PlaidLinked");
export const LinkedAccounts = envelope(
  z.array(
    z.object({
      id: z.number().int(),
      kind: accountKind,
      label: z.string(),
      institution_name: z.string().nullable(),
      status: accountStatus,
      last_imported_at: z.union([isoTime, z.date()]).nullable(),
      last_error: z.string().nullable(),
      trades: z.number().int(),
      cash_flows: z.number().int(),
      withdrawals: z.number().int(),
    }),
  ),
).openapi("LinkedAccounts");
export const ImportStarted = envelope(z.object({ import_id: z.number().int(), state: z.literal("queued") })).openapi(
  "ImportStarted",
);
export const Imports = envelope(
  z.array(
    z.object({
      id: z.number().int(),
      linked_account_id: z.number().int(),
      account_label: z.string(),
      kind: accountKind,
      reason: z.enum(["link", "evaluation", "webhook", "retry"]),
      state: z.enum(["queued", "waiting_for_provider", "fetching", "mapping", "grading", "done", "failed"]),
      fetched: z.number().int(),
      total: z.number().int().nullable(),
      skipped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
      trades_added: z.number().int(),
      error: z.string().nullable(),
      attempts: z.number().int(),
      created_at: isoTime,
      updated_at: isoTime,
      finished_at: isoTime.nullable(),
    }),
  ),
).openapi("Imports");
export const PlaidWebhookAnswer = envelope(
  z.object({ received: z.literal(true), action: z.string(), accounts: z.number().int() }),
).openapi("PlaidWebhookAnswer");
export const StripeWebhookAnswer = z
  .object({ received: z.literal(true), duplicate: z.boolean() })
  .openapi("StripeWebhookAnswer", { description: "Stripe's own shape, without the envelope." });
export const CheckoutSession = envelope(z.object({ client_secret: z.string(), session_id: z.string() })).openapi(
  "CheckoutSession",
);

export const GradeLog = envelope(
  z.array(
    z.object({
      seq: z.number().int(),
      hash: z.string(),
      prev_hash: z.string(),
      kid: z.string(),
      signature: z.string(),
      record: z.record(z.unknown()),
    }),
  ),
  z.object({ next: z.number().int().nullable(), head: z.object({ seq: z.number().int(), hash: z.string() }) }),
).openapi("GradeLog");
export const PageViews = envelope(z.object({ path: z.string(), views: z.number().int() })).openapi("PageViews");

const amount = z.number().nullable().openapi({ description: "null when the trader hides amounts" });
export const Trades = envelope(
  z.array(
    z.object({
      id: z.string(),
      time: isoTime,
      symbol: z.string(),
      asset_class: z.string(),
      side: z.string(),
      quantity: amount,
      price: z.number(),
      fee: amount,
      currency: z.string().openapi({ description: "The currency of price and fee (ISO 4217)." }),
      account: z.string(),
    }),
  ),
  PageMeta,
).openapi("Trades");
export const Notifications = envelope(
  z.array(
    z.object({
      id: z.string(),
      kind: z.enum(NOTIFICATION_KINDS),
      text: z.string(),
      url: z.string(),
      count: z.number().int(),
      actor: z
        .object({
          id: z.number().int(),
          name: z.string(),
          username: z.string().nullable(),
          avatar: z.string().nullable(),
        })
        .nullable(),
      data: z.record(z.unknown()),
      created_at: isoTime,
      read: z.boolean(),
    }),
  ),
  PageMeta.extend({ unread: z.number().int(), sort_by: z.literal("created_at"), order: z.literal("desc") }),
).openapi("Notifications");
export const Holdings = envelope(
  z.array(
    z.object({
      symbol: z.string(),
      asset_class: z.string(),
      quantity: amount,
      avg_cost: amount,
      mark: z.number(),
      value: amount,
      weight: z.number(),
      unrealized: amount,
    }),
  ),
  PageMeta.extend({
    as_of: z.string().nullable(),
    currency: z
      .string()
      .openapi({ description: "The currency of avg_cost, mark, value and unrealized: the grade's base." }),
  }),
).openapi("Holdings");
export const Ledger = envelope(
  z
    .record(z.unknown())
    .openapi({ description: "The engine-format ledger the grade was computed from (docs/GRADING.md)." }),
  z.object({
    evaluationId: z.number().int(),
    engineVersion: z.string(),
    ledgerDigest: z.string(),
    dataQuality: z
      .object({
        skipped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
        disagreements: z.array(z.object({ symbol: z.string(), computed: z.number(), reported: z.number() })).optional(),
        unpriced: z.array(z.string()).optional(),
      })
      .nullable()
      .openapi({ description: "What the grade could not use (docs/API.md); null for grades before it was kept." }),
  }),
).openapi("Ledger");
const traderRef = {
  id: z.number().int(),
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  avatar: z.string().nullable(),
};
export const Leaderboard = envelope(
  z.array(
    z.object({
      ...traderRef,
      rank: z.number().int(),
      name: z.string().nullable(),
      tier: z.enum(TIERS).nullable(),
      stars: z.number().int(),
      score: z.number().nullable(),
      return: z.number().nullable(),
      drawdown: z.number().nullable(),
      followers: z.number().int(),
    }),
  ),
  PageMeta,
).openapi("Leaderboard");
const seasonTrader = {
  ...traderRef,
  rank: z.number().int(),
  name: z.string().nullable(),
  tier: z.string().nullable().openapi({ description: "The tier of the verified grade the season counts." }),
  score: z.number().openapi({ description: "Season score: annualised Sharpe ratio of the season's active days." }),
};
const SeasonStanding = z.object({
  ...seasonTrader,
  active_days: z.number().int(),
  return: z.number().openapi({ description: "Time-weighted return over the season's days, a fraction." }),
  prize: z.number().int().openapi({ description: "Points the rank would win if the season closed now (0: none)." }),
});
export const Seasons = envelope(
  z.object({
    season: z.object({
      month: z.string().openapi({ example: "2026-12" }),
      label: z.string(),
      ends_at: isoTime,
      days_left: z.number().int(),
      ranked: z.number().int(),
    }),
    standings: z.array(SeasonStanding).openapi({ description: "The top 50, best first." }),
    me: SeasonStanding.nullable().openapi({ description: "The caller's own place, null when not ranked." }),
    past: z.array(
      z.object({
        month: z.string(),
        label: z.string(),
        closed_at: isoTime,
        winners: z.array(z.object({ ...seasonTrader, points: z.number().int() })),
      }),
    ),
  }),
).openapi("Seasons");
export const Clubs = envelope(
  z.array(
    z.object({
      id: z.number().int(),
      slug: z.string().openapi({ description: "The club page is /clubs/{slug}." }),
      name: z.string(),
      description: z.string(),
      markets: z.string(),
      min_tier: z.enum(TIERS).nullable().openapi({ description: "The verified tier a trader needs to join, if any." }),
      join_policy: z.enum(["open", "request"]),
      member_count: z.number().int(),
      created_at: isoTime,
      owner: z.object({ ...traderRef, name: z.string().nullable() }),
      membership: z
        .object({ role: z.enum(["owner", "moderator", "member"]), status: z.enum(["active", "pending"]) })
        .nullable()
        .openapi({ description: "The caller's place in the club: null when not in it." }),
    }),
  ),
  PageMeta,
).openapi("Clubs");
export const MarketTrades = envelope(
  z.array(
    z.object({
      id: z.string(),
      time: isoTime,
      symbol: z.string(),
      asset_class: z.string(),
      side: z.string(),
      price: z.number(),
      quantity: amount,
      trader: z.object({ ...traderRef, name: z.string().nullable() }),
    }),
  ),
  PageMeta,
).openapi("MarketTrades");
export const RoundTrips = envelope(
  z.array(
    z.object({
      n: z.number().int(),
      account: z.string(),
      symbol: z.string(),
      asset_class: z.string(),
      side: z.enum(["long", "short"]),
      open_time: isoTime,
      close_time: isoTime,
      holding_days: z.number(),
      entry_notional: z.number().nullable(),
      pnl: z.number().nullable(),
      return: z.number().nullable(),
      outcome: z.enum(["win", "loss", "even"]),
    }),
  ),
  PageMeta.extend({ sort_by: z.string(), order: z.enum(["asc", "desc"]), evaluation_id: z.number().int() }),
).openapi("RoundTrips");
export const TraderSearch = envelope(
  z.array(
    z.object({
      ...traderRef,
      tier: z.enum(TIERS).nullable().openapi({ description: "The current grade's tier; null before a first grade." }),
      score: z
        .number()
        .nullable()
        .openapi({ description: "The current grade's score, cut to 0.1 as every page shows it." }),
    }),
  ),
).openapi("TraderSearch");
export const ShareRecorded = envelope(
  z.object({
    task: z.literal("share_card"),
    credited: z.number().int(),
    points: z.number().int(),
    already_claimed: z.boolean(),
  }),
).openapi("ShareRecorded");
export const ShareImage = envelope(
  z.object({
    share_url: z.string().openapi({ format: "uri" }),
    format: z.enum(["link", "story"]),
    width: z.number().int(),
    height: z.number().int(),
    page_url: z.string().openapi({ format: "uri" }),
    verification_code: z.string(),
  }),
).openapi("ShareImage");

// Web Push (community/push.server.ts)
export const PushSubscriptionBody = PushSubscriptionInput.openapi("PushSubscriptionBody", {
  description: "What the browser's PushSubscription.toJSON() gives (expirationTime is ignored).",
});
export const PushUnsubscribeBody = z
  .object({ endpoint: z.string({ required_error: "endpoint is required" }).min(1).max(2048) })
  .openapi("PushUnsubscribeBody");
// Live trade alerts (DECISIONS 215): the caller's own sharing, and the traders whose alerts they get.
const alertSettingsFields = {
  enabled: z.boolean().openapi({ description: "Share my trades live (off by default)." }),
  delay: z.enum(ALERT_DELAYS).openapi({
    description:
      "When an alert goes: `none` as soon as the trade is imported, `15m` after the trade, `eod` at midnight in the caller's time zone.",
  }),
  hide_sizes: z.boolean().openapi({
    description: "true: the trade's share of the portfolio only; false: the quantity too. Never a sum of money.",
  }),
};
export const TradeAlertSettingsBody = z
  .object({
    enabled: alertSettingsFields.enabled.optional(),
    delay: z.enum(ALERT_DELAYS, { errorMap: () => ({ message: `Use one of ${ALERT_DELAYS.join(", ")}.` }) }).optional(),
    hide_sizes: alertSettingsFields.hide_sizes.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Send enabled, delay or hide_sizes." })
  .openapi("TradeAlertSettingsBody", { description: "What to change; what is left out stays as it is." });
export const TradeAlertSettings = envelope(
  z.object({
    ...alertSettingsFields,
    since: isoTime.nullable().openapi({
      description: "When sharing was last turned on: trades from before that UTC day are never sent.",
    }),
    time_zone: z.string().openapi({ description: "Where `eod` is (the caller's settings)." }),
  }),
).openapi("TradeAlertSettings");
export const AlertSubscriptionBody = z.object({ trader_id: id }).openapi("AlertSubscriptionBody");
export const AlertSubscriptions = envelope(
  z.array(
    z.object({
      trader: z.object({ ...traderRef, name: z.string().nullable() }),
      sharing: z
        .boolean()
        .openapi({ description: "false: the trader stopped sharing; nothing comes until they start again." }),
      subscribed_at: isoTime,
    }),
  ),
).openapi("AlertSubscriptions");
export const AlertSubscribed = envelope(z.object({ trader_id: z.number().int(), subscribed: z.boolean() })).openapi(
  "AlertSubscribed",
);
export const PushKey = envelope(
  z.object({
    public_key: z.string().openapi({ description: "The VAPID public key (base64url): the applicationServerKey." }),
    subscriptions: z.number().int().openapi({ description: "How many of the caller's browsers are subscribed." }),
  }),
).openapi("PushKey");
export const PushSaved = envelope(z.object({ subscribed: z.boolean() })).openapi("PushSaved");

import { isIP } from "node:net";
import { z } from "zod";
import { SERVED_ACCOUNT_KINDS } from "~/lib/vocabulary";

// One schema for the whole environment, parsed once at start-up. A bad value stops the server
// with a message naming the variable (see docs/OPERATIONS.md for every variable).
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY as Express's "trust proxy" takes it: a hop count, true/false, or a list of addresses,
 * CIDRs and Express's names. Checked here because Express throws on a bad list only at the first
 * request, and a crash per request is not a start-up error.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): boolean | number | string {
  const v = value.trim();
  if (v === "" || v === "false") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  const bad = v
    .split(",")
    .map((part) => part.trim())
    .filter((part) => {
      if (PROXY_NAMES.has(part)) return false;
      const [address, bits, ...rest] = part.split("/");
      const family = isIP(address ?? "");
      if (!family || rest.length) return true;
      return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
    });
  if (bad.length) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `not a hop count, true/false, address, CIDR or one of loopback, linklocal, uniquelocal: ${bad.join(", ")}`,
    });
    return z.NEVER;
  }
  return v;
}

const bool = z.enum(["0", "1", "true", "false", ""]).transform((v) => v === "1" || v === "true");

/** Every outside service that has a simulator: sign-in, each kind of linked account, payments, mail, prices, FX rates. */
export const PROVIDER_NAMES = [
  "google",
  "apple",
  ...SERVED_ACCOUNT_KINDS,
  "stripe",
  "smtp",
  "prices",
  "fx-rates",
] as const;

const EnvSchema = z.object({
  // Run every provider without credentials on its simulator, also in production (`npm start` sets
  // it). Without it a production server refuses to start when a provider lacks credentials, unless
  // DEMO_PROVIDERS names it (comma separated, from PROVIDER_NAMES).
  DEMO: bool.default(""),
  // In demo mode an empty database gets a small demo community at start (SEED_DEMO=0: stays empty).
  SEED_DEMO: bool.default("1"),
  DEMO_PROVIDERS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(PROVIDER_NAMES, {
          errorMap: () => ({ message: `each name must be one of ${PROVIDER_NAMES.join(",")}` }),
        }),
      ),
    ),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  // Empty counts as unset (as in many .env files): embedded PGlite.
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:/.test(u), "must be a postgres:// URL")
      .optional(),
  ),
  // A direct connection to the same database when DATABASE_URL goes through a pooler (PgBouncer in
  // transaction mode): migrations, the start-up lock, the job queue's set-up and the role's
  // defaults need one session from start to end. Empty or unset: DATABASE_URL.
  DATABASE_DIRECT_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:/.test(u), "must be a postgres:// URL")
      .optional(),
  ),
  // A read-only copy of the database (a streaming replica) for the heavy public reads that may lag
  // by seconds: the leaderboard, search, others' profiles, the grade log. Empty or unset:
  // DATABASE_URL. Its pool holds up to DATABASE_READ_POOL_SIZE connections per process.
  DATABASE_READ_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:/.test(u), "must be a postgres:// URL")
      .optional(),
  ),
  DATABASE_READ_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(5),
  // PostgreSQL pool: connections per process, time to open one, longest statement, and the
  // longest a request waits for a free connection before it is answered 503 (Retry-After).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().positive().default(1_000),
  // Rendered (Remix) requests handled at once per process, and how long the next may wait for a
  // turn before a 503 with Retry-After (see admission.server.ts). Static files, cards, cached pages
  // and health checks are not counted.
  MAX_CONCURRENT_RENDERS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).default(8)),
  RENDER_QUEUE_WAIT_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().positive().default(250),
  ),
  // How many may wait for a turn; past that a request is refused at once (empty: as many as
  // MAX_CONCURRENT_RENDERS).
  RENDER_QUEUE_MAX: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).optional()),
  // Downloads (the ledger, the trades and round-trips CSVs, own data) handled at once per process;
  // one more is refused at once with a 503 (see admission.server.ts).
  MAX_CONCURRENT_DOWNLOADS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).default(2)),
  // Open live streams (GET /api/portal/events) per process, apart from the render slots (DECISIONS 189).
  LIVE_MAX_STREAMS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).default(2000)),
  // Of those, at most this many per account (a 429 past it): one client cannot take them all.
  LIVE_MAX_STREAMS_PER_USER: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).default(20),
  ),
  // A comment line on every open stream this often (DECISIONS 189: under the usual proxies' idle timeouts).
  LIVE_HEARTBEAT_SECONDS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(55).default(20),
  ),
  // Default: http://localhost:<PORT> (3000 when PORT is 0, i.e. any free port).
  PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  SUPPORT_EMAIL: z.string().email().default("support@grader.example"),
  // The product's own social accounts, shown in the footer and the mobile menu; unset: not shown
  // (never a generic network home page).
  SOCIAL_X_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  SOCIAL_DISCORD_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  SOCIAL_TELEGRAM_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
  LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
  // One JSON line per request (at info level); benchmarks turn it off.
  LOG_REQUESTS: bool.default("1"),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24 * 7),
  SESSION_MAX_DAYS: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Behind a load balancer: how long a stopping process goes on serving (every answer with
  // "Connection: close", /readyz 503) before it closes its port and idle connections. Set it above
  // the balancer's upstream keep-alive timeout: an idle connection closed under the balancer's feet
  // fails the POST it was sending on it (nginx answers 502). 0: close at once.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(0),
  // Express "trust proxy" setting when behind a load balancer, e.g. "1" or "loopback".
  TRUST_PROXY: z.string().default("").transform(parseTrustProxy),
  PAGE_CACHE: bool.default("1"),
  // Evaluations: lifetime free tries per user, and evaluations per UTC day.
  FREE_TRIES: z.coerce.number().int().min(0).default(3),
  DAILY_EVALUATIONS: z.coerce.number().int().min(1).default(5),
  // Automatic grades (after an import, using no try) per user and UTC day; past them an import
  // ends without one (0: none at all).
  AUTO_GRADES_PER_DAY: z.coerce.number().int().min(0).default(3),
  // smtp(s)://user:pass@host:port delivers the outbox. Unset (demo): mail stays in the outbox,
  // readable at /dev/mail.
  SMTP_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^smtps?:/.test(u), "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  MAIL_FROM: z.string().optional(),
  // How long a sender holds a mail it claimed (DECISIONS 171): one that dies leaves the mail to
  // another after this. Above the longest an SMTP hand-off takes (about 40 s, mail.server.ts).
  MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  // 32-byte key (hex or base64) for AES-256-GCM encryption of provider tokens. Unset: a demo key
  // is generated and kept in DATA_DIR/encryption.key.
  // Required with DATABASE_URL. Rotation: the new key here, the old one(s) in
  // ENCRYPTION_KEY_PREVIOUS (comma separated); secrets sealed with an old key stay readable.
  ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  ENCRYPTION_KEY_PREVIOUS: z.string().default(""),
  // GET /metrics: a scraper sends `Authorization: Bearer <METRICS_TOKEN>` or comes from a
  // METRICS_ALLOW network (comma-separated addresses or CIDRs, e.g. "10.0.0.0/8,127.0.0.1").
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 16, "use at least 16 characters"),
  METRICS_ALLOW: z
    .string()
    .default("")
    .refine(
      (v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .every((e) => /^[0-9a-f:.]+(\/\d{1,3})?$/i.test(e)),
      "comma-separated IP addresses or CIDRs",
    ),
  // Ed25519 private key that signs the public grade log (PKCS8 PEM, "\n" escapes allowed, or its
  // DER in base64). Unset: one is generated once and kept in the database, sealed with the
  // encryption key, so every replica signs with the same key (docs/OPERATIONS.md).
  GRADE_SIGNING_KEY: z
    .string()
    .optional()
    .transform((v) => v?.replace(/\\n/g, "\n").trim() || undefined),
  // Web Push (VAPID, base64url as `npx web-push generate-vapid-keys` prints them; both or neither).
  // Unset: a pair is generated once and kept in the database, sealed with the encryption key, so
  // every replica signs with it (DECISIONS 191). The subject defaults to mailto:SUPPORT_EMAIL.
  VAPID_PUBLIC_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  VAPID_PRIVATE_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  VAPID_SUBJECT: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^(mailto:|https:\/\/)/.test(v), "must be a mailto: address or an https:// URL"),
  // Extra origins allowed to POST (comma separated), besides PUBLIC_URL and the request's own host.
  TRUSTED_ORIGINS: z.string().default(""),
  // Sign in with Google / Apple. A provider whose credentials are unset runs in demo mode against
  // the msw simulators in test/mocks (see docs/DECISIONS.md). APPLE_PRIVATE_KEY is the .p8 PEM
  // ("\n" escapes allowed); OAUTH_STATE_SECRET signs OAuth state (demo: one per process).
  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  GOOGLE_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  APPLE_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  APPLE_TEAM_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  APPLE_KEY_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  APPLE_PRIVATE_KEY: z
    .string()
    .optional()
    .transform((v) => v?.replace(/\\n/g, "\n") || undefined),
  OAUTH_STATE_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 32, "use at least 32 characters"),
  // Plaid (broker linking). Without PLAID_CLIENT_ID and PLAID_SECRET it runs in demo mode against
  // the msw simulator in test/mocks/plaid.ts (sandbox base URL, stand-in Link page /demo/plaid-link).
  PLAID_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  PLAID_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  PLAID_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  // Wallets (MetaMask/EVM, Phantom/Solana; see docs/SOURCES.md). History comes from an
  // Etherscan-compatible explorer API (Etherscan, Blockscout) and a Solana JSON-RPC node. Unset URLs
  // run in demo mode against the msw simulators in test/mocks (evm.ts, solana.ts).
  EVM_EXPLORER_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  EVM_EXPLORER_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  // The EVM chains a wallet's history is read on (Etherscan v2 chain ids; Etherscan's free tier
  // excludes Base 8453, OP 10 and BNB 56). The sign-in message itself is for chain 1.
  EVM_CHAINS: z
    .string()
    .default("1,8453,42161,10,137,56")
    .transform((v) =>
      v
        .split(",")
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0),
    )
    .refine(
      (ids) => ids.length > 0 && ids.every((id) => [1, 8453, 42161, 10, 137, 56].includes(id)),
      "use chain ids from 1, 8453, 42161, 10, 137, 56",
    ),
  SOLANA_RPC_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  // Exchanges (docs/SOURCES.md "Exchanges"): the trader brings a read-only key; the server needs
  // only the exchange's API address. Unset: demo mode against the simulator (test/mocks/binance.ts).
  BINANCE_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  // Interactive Brokers' Flex Web Service (docs/SOURCES.md "Interactive Brokers"): the trader brings
  // a Flex token and query id; the server needs only the service's address,
  // https://ndcdyn.interactivebrokers.com/AccountManagement/FlexWebService. Unset: demo mode
  // against the simulator (test/mocks/ibkr.ts).
  IBKR_FLEX_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  KRAKEN_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  COINBASE_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  OKX_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  BYBIT_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal(""))
    .transform((v) => v || undefined),
  // How many 365-day windows an IBKR import walks back at most when the statement does not say
  // when the account was opened (Flex statements reach back to the account's opening).
  IBKR_MAX_WINDOWS: z.coerce.number().int().min(1).max(30).default(10),
  // How far back an exchange's deposits, withdrawals and converts are read (trades: from the first).
  EXCHANGE_HISTORY_DAYS: z.coerce.number().int().min(30).max(3650).default(730),
  // Lifetime of a wallet sign-in message (SIWE/SIWS nonce), and the time limit of one provider call.
  WALLET_NONCE_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  WALLET_PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // Jobs (imports, webhooks, re-grades; docs/OPERATIONS.md "Jobs"): workers per queue in this
  // process (0: this process only enqueues), how long a job may run before another worker may take
  // it over, how often a failing job is tried again (with exponential backoff from the delay), and
  // how often an idle worker looks for work.
  JOB_WORKERS: z.coerce.number().int().min(0).max(16).default(2),
  JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(6),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(600).default(2),
  // Ledger rows a wallet import stores per job (one short transaction each; PGlite has one connection).
  IMPORT_CHUNK_ROWS: z.coerce.number().int().min(1).max(10_000).default(1000),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(0.5),
  // Grades re-made after a new engine version (DECISIONS 168): traders per job, and the pause
  // between two jobs, so interactive work keeps the database and the workers.
  ENGINE_REGRADE_BATCH: z.coerce.number().int().min(1).max(1000).default(10),
  ENGINE_REGRADE_PAUSE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  // A Plaid webhook may never come: every this many seconds, Plaid accounts not imported for as
  // long are imported again (0 turns the poll off).
  PLAID_POLL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(6 * 3600),
  // How long an evaluation waits for the re-import it starts before answering 425 (code
  // "still importing"; the import goes on and the trader asks again when it is done).
  EVALUATION_IMPORT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(15_000),
  // Stripe (paid passes). Without STRIPE_SECRET_KEY it runs in demo mode: the real `stripe` SDK talks
  // to the msw simulator (test/mocks/stripe.ts), a local stand-in checkout page (/demo/checkout/:id)
  // takes the test cards and delivers a webhook signed with the demo secret. STRIPE_PRICE_<PASS> are
  // the Stripe price ids of the passes in app/server/billing/passes.ts (demo defaults price_demo_*).
  // Historical prices (Yahoo chart API for stocks, DefiLlama for tokens; both keyless). Unset/0:
  // demo mode against the msw simulator in test/mocks/prices.ts, no network needed.
  PRICES_LIVE: bool.default("0"),
  PRICES_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // The ECB's euro reference rates through Frankfurter's v1 API (keyless). Unset/0: demo mode
  // against the msw simulator in test/mocks/fx-rates.ts. FX_RATES_URL: another Frankfurter (a
  // self-hosted one) instead of the public https://api.frankfurter.dev.
  FX_RATES_LIVE: bool.default("0"),
  FX_RATES_URL: z.string().url().default("https://api.frankfurter.dev"),
  FX_RATES_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // Scales every simulated provider delay in demo mode (0: none, as in tests; 1: realistic).
  SIM_DELAY_FACTOR: z.coerce.number().min(0).default(1),
  STRIPE_SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  STRIPE_PRICE_STARTER: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  STRIPE_PRICE_PRO: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  STRIPE_PRICE_UNLIMITED: z
    .string()
    .optional()
    .transform((v) => v || undefined),
});

export type Env = Omit<z.infer<typeof EnvSchema>, "PUBLIC_URL"> & { PUBLIC_URL: string };

/** Every variable the server reads (each has one row in docs/OPERATIONS.md). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as (keyof Env)[];

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return { ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}` };
}

let current: Env | undefined;

/** The environment, parsed once per process on first use. */
export function getEnv(): Env {
  return (current ??= parseEnv());
}

/**
 * Replaces the parsed environment (undefined: parse process.env again on the next getEnv). For
 * tests and the bench, which run one process under several configurations.
 */
export function setEnv(env: Env | undefined): void {
  current = env;
}

// The subset the browser may see (window.ENV).
export function getPublicEnv() {
  const env = getEnv();
  const social = [
    { href: env.SOCIAL_X_URL, label: "X (Twitter)", short: "X" },
    { href: env.SOCIAL_DISCORD_URL, label: "Discord", short: "Discord" },
    { href: env.SOCIAL_TELEGRAM_URL, label: "Telegram", short: "Telegram" },
  ].filter((s): s is { href: string; label: string; short: string } => Boolean(s.href));
  return { PUBLIC_URL: env.PUBLIC_URL, SUPPORT_EMAIL: env.SUPPORT_EMAIL, SOCIAL: social };
}
export type PublicEnv = ReturnType<typeof getPublicEnv>;

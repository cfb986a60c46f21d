import { getEnv, PROVIDER_NAMES, type Env } from "./env.server";

/**
 * The one place that decides which providers run on their simulators (test/mocks) instead of the
 * real service. A provider is simulated when one of its switch variables is unset; whether that
 * is allowed is a separate question (`startupProblems`): in production only with DEMO=1 or with
 * the provider named in DEMO_PROVIDERS.
 */
export const PROVIDERS = PROVIDER_NAMES;
export type Provider = (typeof PROVIDERS)[number];

type Requirement = {
  /** Any of these unset: the simulator answers for the provider. */
  switches: (keyof Env)[];
  /** All of these are needed for the real service (checked at start in production). */
  required: (keyof Env)[];
};

const REQUIREMENTS: Record<Provider, Requirement> = {
  google: {
    switches: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    required: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  },
  apple: {
    switches: ["APPLE_CLIENT_ID", "APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY"],
    required: ["APPLE_CLIENT_ID", "APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY"],
  },
  plaid: { switches: ["PLAID_CLIENT_ID", "PLAID_SECRET"], required: ["PLAID_CLIENT_ID", "PLAID_SECRET"] },
  evm: { switches: ["EVM_EXPLORER_URL"], required: ["EVM_EXPLORER_URL"] },
  solana: { switches: ["SOLANA_RPC_URL"], required: ["SOLANA_RPC_URL"] },
  binance: { switches: ["BINANCE_API_URL"], required: ["BINANCE_API_URL"] },
  ibkr: { switches: ["IBKR_FLEX_URL"], required: ["IBKR_FLEX_URL"] },
  kraken: { switches: ["KRAKEN_API_URL"], required: ["KRAKEN_API_URL"] },
  coinbase: { switches: ["COINBASE_API_URL"], required: ["COINBASE_API_URL"] },
  okx: { switches: ["OKX_API_URL"], required: ["OKX_API_URL"] },
  bybit: { switches: ["BYBIT_API_URL"], required: ["BYBIT_API_URL"] },
  // A real key without the webhook secret would take money and never grant the pass.
  stripe: { switches: ["STRIPE_SECRET_KEY"], required: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] },
  smtp: { switches: ["SMTP_URL"], required: ["SMTP_URL"] },
  // Historical prices (Yahoo, DefiLlama) are keyless: PRICES_LIVE=1 turns the real ones on.
  prices: { switches: ["PRICES_LIVE"], required: ["PRICES_LIVE"] },
  // The ECB's reference rates (Frankfurter) are keyless too: FX_RATES_LIVE=1 turns the real ones on.
  "fx-rates": { switches: ["FX_RATES_LIVE"], required: ["FX_RATES_LIVE"] },
};

/** What a provider does for the user, for the demo banner. */
const WHAT: Partial<Record<Provider, string>> = {
  plaid: "brokers",
  evm: "wallets",
  solana: "wallets",
  binance: "exchanges",
  ibkr: "brokers",
  kraken: "exchanges",
  coinbase: "exchanges",
  okx: "exchanges",
  bybit: "exchanges",
  stripe: "payments",
  google: "sign-in",
  apple: "sign-in",
  prices: "prices",
  "fx-rates": "prices",
};

const SUBJECT_ORDER = ["brokers", "exchanges", "wallets", "payments", "sign-in", "prices"];

function isUnset(env: Env, name: keyof Env): boolean {
  const value = env[name];
  return value === undefined || value === "" || value === false;
}

export function isSimulated(provider: Provider, env: Env = getEnv()): boolean {
  return REQUIREMENTS[provider].switches.some((name) => isUnset(env, name));
}

export function simulatedProviders(env: Env = getEnv()): Provider[] {
  return PROVIDERS.filter((p) => isSimulated(p, env));
}

/** The providers allowed to be simulated: all outside production or with DEMO=1, else DEMO_PROVIDERS. */
export function mayBeSimulated(env: Env = getEnv()): Set<Provider> {
  if (env.DEMO || env.NODE_ENV !== "production") return new Set(PROVIDERS);
  return new Set(env.DEMO_PROVIDERS);
}

/** The variables missing for a provider that must be real (empty when it may be simulated). */
export function missingCredentials(provider: Provider, env: Env = getEnv()): (keyof Env)[] {
  if (mayBeSimulated(env).has(provider)) return [];
  return REQUIREMENTS[provider].required.filter((name) => isUnset(env, name));
}

/**
 * Configuration that must stop the server before it listens: providers that would fall back to
 * a simulator without being allowed to, and a shared database without a shared encryption key.
 */
export function startupProblems(env: Env = getEnv()): string[] {
  const problems: string[] = [];
  for (const provider of PROVIDERS) {
    const missing = missingCredentials(provider, env);
    if (missing.length)
      problems.push(
        `${provider}: set ${missing.join(", ")} (or allow its simulator with DEMO_PROVIDERS=${provider}, or DEMO=1 for all)`,
      );
  }
  if (env.DATABASE_URL && !env.ENCRYPTION_KEY) {
    problems.push(
      "ENCRYPTION_KEY: required with DATABASE_URL (every replica must read the others' secrets); make one with `openssl rand -hex 32`",
    );
  }
  // An OAuth callback may land on another replica, which must check the state the first signed.
  if (env.DATABASE_URL && !env.OAUTH_STATE_SECRET && (!isSimulated("google", env) || !isSimulated("apple", env))) {
    problems.push(
      "OAUTH_STATE_SECRET: required with DATABASE_URL when Google or Apple sign-in is configured (every replica must check the others' OAuth state); make one with `openssl rand -hex 32`",
    );
  }
  if (!env.VAPID_PUBLIC_KEY !== !env.VAPID_PRIVATE_KEY) {
    problems.push("VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither (`npx web-push generate-vapid-keys`)");
  }
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
    problems.push("DATABASE_DIRECT_URL: set only with DATABASE_URL (it is the direct address of that database)");
  }
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    problems.push("DATABASE_READ_URL: set only with DATABASE_URL (it is a read-only copy of that database)");
  }
  return problems;
}

/** The banner's words ("brokers, wallets and payments"), or null when nothing a user sees is simulated. */
export function demoBannerSubjects(env: Env = getEnv()): string | null {
  const simulated = new Set(simulatedProviders(env).map((p) => WHAT[p]));
  const subjects = SUBJECT_ORDER.filter((s) => simulated.has(s));
  if (!subjects.length) return null;
  return subjects.length === 1
    ? subjects[0]
    : `${subjects.slice(0, -1).join(", ")} and ${subjects[subjects.length - 1]}`;
}

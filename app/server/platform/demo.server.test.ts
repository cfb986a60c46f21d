import { describe, expect, it } from "vitest";
import { demoBannerSubjects, simulatedProviders, startupProblems } from "./demo.server";
import { parseEnv } from "./env.server";

const REAL = {
  GOOGLE_CLIENT_ID: "g",
  GOOGLE_CLIENT_SECRET: "g",
  APPLE_CLIENT_ID: "a",
  APPLE_TEAM_ID: "a",
  APPLE_KEY_ID: "a",
  APPLE_PRIVATE_KEY: "a",
  PLAID_CLIENT_ID: "p",
  PLAID_SECRET: "p",
  EVM_EXPLORER_URL: "https://explorer.example/api",
  SOLANA_RPC_URL: "https://rpc.example/",
  BINANCE_API_URL: "https://api.binance.com",
  IBKR_FLEX_URL: "https://ndcdyn.interactivebrokers.com/AccountManagement/FlexWebService",
  KRAKEN_API_URL: "https://api.kraken.com",
  COINBASE_API_URL: "https://api.coinbase.com",
  OKX_API_URL: "https://www.okx.com",
  BYBIT_API_URL: "https://api.bybit.com",
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  SMTP_URL: "smtp://mail.example:587",
  PRICES_LIVE: "1",
  FX_RATES_LIVE: "1",
};
const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: "production", ...vars });

describe("which providers are simulated", () => {
  it("is every provider without credentials, and none with all of them", () => {
    expect(simulatedProviders(env({}))).toEqual([
      "google",
      "apple",
      "plaid",
      "evm",
      "solana",
      "binance",
      "kraken",
      "coinbase",
      "okx",
      "bybit",
      "ibkr",
      "stripe",
      "smtp",
      "prices",
      "fx-rates",
    ]);
    // Prices need no key: PRICES_LIVE=1 is the switch to the real services.
    expect(simulatedProviders(env({ ...REAL, PRICES_LIVE: "0" }))).toEqual(["prices"]);
    expect(simulatedProviders(env(REAL))).toEqual([]);
    expect(demoBannerSubjects(env(REAL))).toBeNull();
    expect(demoBannerSubjects(env({ ...REAL, PLAID_SECRET: "" }))).toBe("brokers");
  });
});

describe("startupProblems", () => {
  it("is empty in production with every credential, a shared database and its key", () => {
    expect(
      startupProblems(
        env({
          ...REAL,
          DATABASE_URL: "postgres://db/grader",
          ENCRYPTION_KEY: "ab".repeat(32),
          OAUTH_STATE_SECRET: "cd".repeat(32),
        }),
      ),
    ).toEqual([]);
  });

  it("names the missing variables of each provider not allowed to be simulated", () => {
    const problems = startupProblems(env({ ...REAL, STRIPE_WEBHOOK_SECRET: "", PLAID_SECRET: "" }));
    expect(problems).toHaveLength(2);
    expect(problems.join("\n")).toMatch(/plaid: set PLAID_SECRET\b/);
    expect(problems.join("\n")).toMatch(/stripe: set STRIPE_WEBHOOK_SECRET\b/);
  });

  it("accepts simulators with DEMO=1, with DEMO_PROVIDERS, and outside production", () => {
    expect(startupProblems(env({ DEMO: "1" }))).toEqual([]);
    expect(startupProblems(env({ ...REAL, SMTP_URL: "", DEMO_PROVIDERS: "smtp, prices" }))).toEqual([]);
    // An uploaded statement has no outside service, so no simulator to allow.
    expect(() => env({ DEMO_PROVIDERS: "statement" })).toThrow(/DEMO_PROVIDERS.*one of .*ibkr,stripe/);
    expect(startupProblems(parseEnv({ NODE_ENV: "development" }))).toEqual([]);
  });

  it("requires ENCRYPTION_KEY with DATABASE_URL, even in demo mode", () => {
    const [problem] = startupProblems(env({ DEMO: "1", DATABASE_URL: "postgres://db/grader" }));
    expect(problem).toMatch(/ENCRYPTION_KEY.*openssl rand -hex 32/);
  });

  it("requires OAUTH_STATE_SECRET with DATABASE_URL when Google or Apple is configured", () => {
    const shared = { DATABASE_URL: "postgres://db/grader", ENCRYPTION_KEY: "ab".repeat(32) };
    const google = { GOOGLE_CLIENT_ID: "g", GOOGLE_CLIENT_SECRET: "g" };
    const apple = { APPLE_CLIENT_ID: "a", APPLE_TEAM_ID: "a", APPLE_KEY_ID: "a", APPLE_PRIVATE_KEY: "a" };
    for (const configured of [google, apple, { ...google, ...apple }]) {
      const problems = startupProblems(env({ DEMO: "1", ...shared, ...configured }));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^OAUTH_STATE_SECRET: required with DATABASE_URL.*openssl rand -hex 32/);
      expect(
        startupProblems(env({ DEMO: "1", ...shared, ...configured, OAUTH_STATE_SECRET: "cd".repeat(32) })),
      ).toEqual([]);
    }
    // Both on their simulators (each process signs its own demo state), or one process on PGlite.
    expect(startupProblems(env({ DEMO: "1", ...shared }))).toEqual([]);
    expect(startupProblems(env({ DEMO: "1", ...google, ...apple }))).toEqual([]);
  });

  it("refuses DATABASE_DIRECT_URL without DATABASE_URL", () => {
    expect(startupProblems(env({ DEMO: "1", DATABASE_DIRECT_URL: "postgres://db:5432/grader" }))).toEqual([
      expect.stringMatching(/^DATABASE_DIRECT_URL: set only with DATABASE_URL/),
    ]);
  });

  it("refuses DATABASE_READ_URL without DATABASE_URL", () => {
    expect(startupProblems(env({ DEMO: "1", DATABASE_READ_URL: "postgres://replica:5432/grader" }))).toEqual([
      expect.stringMatching(/^DATABASE_READ_URL: set only with DATABASE_URL/),
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { ACCOUNT_KINDS } from "~/lib/vocabulary";
import { PROVIDERS } from "../../platform/demo.server";
import { parseEnv } from "../../platform/env.server";
import { ACCOUNT_PROVIDERS, isDemoGrade } from "./registry.server";

describe("the provider registry", () => {
  it("has one entry per account kind, each naming its own kind and a known simulator", () => {
    expect(Object.keys(ACCOUNT_PROVIDERS).sort()).toEqual([...ACCOUNT_KINDS].sort());
    for (const kind of ACCOUNT_KINDS) {
      expect(ACCOUNT_PROVIDERS[kind].kind).toBe(kind);
      expect(PROVIDERS).toContain(ACCOUNT_PROVIDERS[kind].simulator);
    }
  });

  it("marks a grade demo when any of its account kinds comes from a simulator", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      PLAID_CLIENT_ID: "p",
      PLAID_SECRET: "p",
      EVM_EXPLORER_URL: "https://explorer.example/api",
    });
    expect(isDemoGrade(["plaid", "evm"], env)).toBe(false);
    expect(isDemoGrade(["plaid", "solana"], env)).toBe(true);
    expect(isDemoGrade([], env)).toBe(false);
  });
});

import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACCOUNT_KIND_VIEWS, ACCOUNT_KINDS_LISTED, BROKER_KINDS, WALLET_KINDS } from "~/lib/account-kinds";
import { ACCOUNT_KINDS } from "~/lib/vocabulary";
import { PROVIDERS } from "../../platform/demo.server";
import { parseEnv, PROVIDER_NAMES } from "../../platform/env.server";
import { ACCOUNT_PROVIDERS, isDemoGrade } from "./registry.server";

describe("the provider registry", () => {
  it("has one entry per account kind, each naming its own kind and a known simulator", () => {
    expect(Object.keys(ACCOUNT_PROVIDERS).sort()).toEqual([...ACCOUNT_KINDS].sort());
    for (const kind of ACCOUNT_KINDS) {
      expect(ACCOUNT_PROVIDERS[kind].kind).toBe(kind);
      expect(PROVIDERS).toContain(ACCOUNT_PROVIDERS[kind].simulator);
    }
  });

  // The compiler holds each Record<LinkedAccountKind, …> to every kind; these are the places it
  // cannot see: a route file, a settings list, the pages' order.
  it("gives every kind a link page, a demo setting and a place in the pages' lists", () => {
    const routes = path.resolve(import.meta.dirname, "../../../routes/_link+");
    for (const kind of ACCOUNT_KINDS) {
      const view = ACCOUNT_KIND_VIEWS[kind];
      expect(view.link.path).toBe(`/link/${kind}`);
      expect(existsSync(path.join(routes, `link.${kind}.tsx`)), `app/routes/_link+/link.${kind}.tsx`).toBe(true);
      expect(PROVIDER_NAMES).toContain(kind);
    }
    expect([...ACCOUNT_KINDS_LISTED].sort()).toEqual([...ACCOUNT_KINDS].sort());
    expect(ACCOUNT_KINDS_LISTED).toEqual([...BROKER_KINDS, ...WALLET_KINDS]);
    expect(ACCOUNT_KINDS_LISTED[0]).toBe("plaid");
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

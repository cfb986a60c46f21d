import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ACCOUNT_KIND_VIEWS,
  ACCOUNT_KINDS_LISTED,
  BROKER_KINDS,
  EXCHANGE_KINDS,
  EXCHANGE_LINK_PATH,
  LINK_OPTIONS,
  SELF_REPORTED_KINDS,
  WALLET_KINDS,
} from "~/lib/account-kinds";
import { LINKABLE_EXCHANGES } from "~/lib/exchanges";
import { EXCHANGES } from "~/sources/exchanges";
import { ACCOUNT_KINDS } from "~/lib/vocabulary";
import { PROVIDERS } from "../../platform/demo.server";
import { parseEnv, PROVIDER_NAMES } from "../../platform/env.server";
import { ACCOUNT_PROVIDERS, isDemoGrade } from "./registry.server";

describe("the provider registry", () => {
  it("has one entry per account kind, each naming its own kind and its simulator (none for a statement)", () => {
    expect(Object.keys(ACCOUNT_PROVIDERS).sort()).toEqual([...ACCOUNT_KINDS].sort());
    for (const kind of ACCOUNT_KINDS) {
      expect(ACCOUNT_PROVIDERS[kind].kind).toBe(kind);
      if (kind === "statement") expect(ACCOUNT_PROVIDERS[kind].simulator).toBeNull();
      else expect(PROVIDERS).toContain(ACCOUNT_PROVIDERS[kind].simulator);
    }
  });

  // The compiler holds each Record<LinkedAccountKind, …> to every kind; these are the places it
  // cannot see: a route file, a settings list, the pages' order.
  it("gives every kind a link page, a demo setting and a place in the pages' lists", () => {
    const routes = path.resolve(import.meta.dirname, "../../../routes/_link+");
    for (const kind of ACCOUNT_KINDS) {
      const view = ACCOUNT_KIND_VIEWS[kind];
      // Every exchange shares one link page (its form names the exchange); the others have their own.
      expect(view.link.path).toBe(view.family === "exchange" ? EXCHANGE_LINK_PATH : `/link/${kind}`);
      const page = `link.${view.link.path.slice("/link/".length)}.tsx`;
      expect(existsSync(path.join(routes, page)), `app/routes/_link+/${page}`).toBe(true);
      // A demo setting for each kind an outside service serves.
      if (kind === "statement") expect(PROVIDER_NAMES).not.toContain(kind);
      else expect(PROVIDER_NAMES).toContain(kind);
    }
    expect([...ACCOUNT_KINDS_LISTED].sort()).toEqual([...ACCOUNT_KINDS].sort());
    expect(ACCOUNT_KINDS_LISTED).toEqual([...BROKER_KINDS, ...EXCHANGE_KINDS, ...WALLET_KINDS, ...SELF_REPORTED_KINDS]);
    expect(ACCOUNT_KINDS_LISTED[0]).toBe("plaid");
    // The connect dialog: the brokers (Plaid's, then Interactive Brokers), one "Link an exchange", the wallets.
    expect(LINK_OPTIONS.map((k) => ACCOUNT_KIND_VIEWS[k].connect.label)).toEqual([
      "Broker",
      "Interactive Brokers",
      "Link an exchange",
      "MetaMask Wallet",
      "Phantom Wallet",
      "Upload a statement",
    ]);
  });

  it("gives every linkable exchange its kind and its adapter entry", () => {
    expect([...EXCHANGE_KINDS].sort()).toEqual([...LINKABLE_EXCHANGES].sort());
    for (const id of LINKABLE_EXCHANGES) expect(EXCHANGES[id].id).toBe(id);
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

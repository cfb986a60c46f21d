import { describe, expect, it } from "vitest";
import { get } from "../support/http";
import { runServerUntilExit } from "../support/spawn";

// What a deployment meets before the first request: the refusals that keep a misconfigured
// server from running on simulators or on a key of its own.

describe("start-up configuration", () => {
  it("refuses to start in production without DEMO when providers lack credentials, naming each variable", async () => {
    const { code, output } = await runServerUntilExit({});
    expect(code).not.toBe(0);
    expect(output).toContain("Refusing to start");
    for (const name of ["GOOGLE_CLIENT_ID", "APPLE_PRIVATE_KEY", "PLAID_CLIENT_ID", "PLAID_SECRET", "EVM_EXPLORER_URL", "SOLANA_RPC_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL"]) {
      expect(output).toContain(name);
    }
    expect(output).not.toContain('"msg":"listening"');
  });

  it("allows the simulators DEMO_PROVIDERS lists and names only what is still missing", async () => {
    const { code, output } = await runServerUntilExit({ DEMO_PROVIDERS: "google,apple,plaid,evm,solana,smtp" });
    expect(code).not.toBe(0);
    expect(output).toContain("STRIPE_SECRET_KEY");
    expect(output).not.toContain("PLAID_CLIENT_ID");
    expect(output).not.toContain("GOOGLE_CLIENT_ID");
  });

  it("refuses an unknown name in DEMO_PROVIDERS", async () => {
    const { code, output } = await runServerUntilExit({ DEMO_PROVIDERS: "plaid,paypal" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/DEMO_PROVIDERS.*one of google,apple,plaid,evm,solana,stripe,smtp,prices/);
  });

  it("requires ENCRYPTION_KEY with DATABASE_URL and says how to make one", async () => {
    // The check comes before any connection: the port may as well be closed.
    const { code, output } = await runServerUntilExit({ DEMO: "1", DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" });
    expect(code).not.toBe(0);
    expect(output).toContain("ENCRYPTION_KEY");
    expect(output).toContain("openssl rand -hex 32");
  });
});

describe("demo mode", () => {
  it("says so in a slim banner on every page", async () => {
    for (const path of ["/", "/pricing", "/signin"]) {
      const html = await (await get(path)).text();
      expect(html).toMatch(/class="demo-banner"[^>]*>.*Demo mode:.*simulated brokers, wallets, payments and sign-in\./s);
    }
  });
});

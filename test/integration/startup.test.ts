import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { get, signUp } from "../support/http";
import { ownDatabase, startServer } from "../support/server";
import { runServerUntilExit } from "../support/spawn";

// What a deployment meets before the first request: the refusals that keep a misconfigured
// server from running on simulators or on a key of its own.

describe("start-up configuration", () => {
  it("refuses to start in production without DEMO when providers lack credentials, naming each variable", async () => {
    const { code, output } = await runServerUntilExit({});
    expect(code).not.toBe(0);
    expect(output).toContain("Refusing to start");
    for (const name of [
      "GOOGLE_CLIENT_ID",
      "APPLE_PRIVATE_KEY",
      "PLAID_CLIENT_ID",
      "PLAID_SECRET",
      "EVM_EXPLORER_URL",
      "SOLANA_RPC_URL",
      "BINANCE_API_URL",
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "SMTP_URL",
    ]) {
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
    expect(output).toMatch(
      /DEMO_PROVIDERS.*one of google,apple,plaid,evm,solana,binance,kraken,coinbase,okx,bybit,ibkr,stripe,smtp,prices,fx-rates/,
    );
  });

  it("requires ENCRYPTION_KEY with DATABASE_URL and says how to make one", async () => {
    // The check comes before any connection: the port may as well be closed.
    const { code, output } = await runServerUntilExit({
      DEMO: "1",
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
    });
    expect(code).not.toBe(0);
    expect(output).toContain("ENCRYPTION_KEY");
    expect(output).toContain("openssl rand -hex 32");
  });
});

describe("demo mode", () => {
  it("says so in a slim banner on every page", async () => {
    for (const path of ["/", "/pricing", "/signin"]) {
      const html = await (await get(path)).text();
      expect(html).toMatch(
        /class="demo-banner"[^>]*>.*Demo mode:.*simulated brokers, exchanges, wallets, payments, sign-in and prices\./s,
      );
    }
  });
});

describe("the database at start-up", () => {
  const base = { DEMO: "1", ENCRYPTION_KEY: "ab".repeat(32) };

  it("names DATABASE_URL for a closed port, without a stack trace", async () => {
    const port = await closedPort();
    const { code, output } = await runServerUntilExit({
      ...base,
      DATABASE_URL: `postgres://grader:secret@127.0.0.1:${port}/grader`,
    });
    expect(code).toBe(1);
    expect(output).toContain(`Cannot use the database of DATABASE_URL (127.0.0.1:${port}/grader)`);
    expect(output).toContain("ECONNREFUSED");
    expect(output).not.toContain("secret");
    expect(output).not.toMatch(/\n\s+at /);
  });

  // The primary answers; the read replica's address is wrong (docs/DECISIONS.md 172).
  it.skipIf(!process.env.DATABASE_URL)("names DATABASE_READ_URL for a closed port", async () => {
    const port = await closedPort();
    const { code, output } = await runServerUntilExit({
      ...base,
      ...(await ownDatabase()),
      DATABASE_READ_URL: `postgres://grader:secret@127.0.0.1:${port}/grader`,
    });
    expect(code).toBe(1);
    expect(output).toContain(`Cannot use the database of DATABASE_READ_URL (127.0.0.1:${port}/grader)`);
    expect(output).not.toContain("secret");
  });

  it("gives up on a host that accepts and never answers, within DATABASE_CONNECT_TIMEOUT_MS", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { code, output } = await runServerUntilExit(
        { ...base, DATABASE_URL: `postgres://grader@127.0.0.1:${port}/grader`, DATABASE_CONNECT_TIMEOUT_MS: "500" },
        30_000,
      );
      expect(code).toBe(1);
      expect(output).toContain("DATABASE_URL");
      expect(output).toContain("no answer within 500 ms");
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe("the encryption key", () => {
  it("refuses a key that does not open the database's sealed secrets, and starts with it named as previous", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grader-key-"));
    // PostgreSQL of its own when the suite runs on it, else a PGlite folder that outlives the process.
    const db = process.env.DATABASE_URL ? await ownDatabase() : { DATA_DIR: dir, DATABASE_URL: "" };
    const keyA = "a1".repeat(32);
    const keyB = "b2".repeat(32);
    try {
      const first = await startServer({ ...db, ENCRYPTION_KEY: keyA });
      // The notification settings make (and seal) the deployment's Web Push key pair.
      const { cookie } = await signUp({ base: first.url });
      expect((await get("/user/settings/notifications", { cookie, base: first.url })).status).toBe(200);
      expect(await first.stop()).toBe(0);

      const refused = await runServerUntilExit({ DEMO: "1", ...db, ENCRYPTION_KEY: keyB });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(
        "Refusing to start: ENCRYPTION_KEY does not open the secrets this database holds (the Web Push key)",
      );
      expect(refused.output).toContain("ENCRYPTION_KEY_PREVIOUS");
      expect(refused.output).not.toMatch(/\n\s+at /);

      const rotated = await startServer({ ...db, ENCRYPTION_KEY: keyB, ENCRYPTION_KEY_PREVIOUS: keyA });
      expect((await fetch(rotated.url + "/healthz")).status).toBe(200);
      expect(await rotated.stop()).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("one process per PGlite data folder", () => {
  it("refuses a second process naming the lock, keeps the first working, and survives kill -9", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grader-lock-"));
    // PGlite whatever database the suite runs on.
    const first = await startServer({ DATA_DIR: dir, DATABASE_URL: "" });
    try {
      const second = await runServerUntilExit({ DEMO: "1", DATA_DIR: dir, DATABASE_URL: "" });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`lock file ${path.join(dir, "grader.lock")}`);
      expect(second.output).toContain(`in use by process ${first.process.pid}`);
      expect((await fetch(first.url + "/healthz")).status).toBe(200);
      // kill -9: the lock file stays behind, naming a dead process; the next start takes it over.
      first.process.kill("SIGKILL");
      await new Promise((r) => first.process.once("exit", r));
      expect(fs.readFileSync(path.join(dir, "grader.lock"), "utf8").trim()).toBe(String(first.process.pid));
      const third = await startServer({ DATA_DIR: dir, DATABASE_URL: "" });
      expect((await fetch(third.url + "/healthz")).status).toBe(200);
      expect(fs.readFileSync(path.join(dir, "grader.lock"), "utf8").trim()).toBe(String(third.process.pid));
      expect(await third.stop()).toBe(0);
      // A clean stop removes it.
      expect(fs.existsSync(path.join(dir, "grader.lock"))).toBe(false);
    } finally {
      if (first.process.exitCode === null) first.process.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, signUp, waitForImports } from "../support/http";

// Signed grades and the public log over HTTP, and the two checkers as a user runs them.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

async function api(p: string, cookie: string, body: unknown = {}) {
  const res = await fetch(baseUrl() + p, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
}

const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function gradedTrader() {
  const { cookie } = await signUp();
  expect(
    (await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() })).status,
  ).toBeLessThan(300);
  // The history imports as jobs and ends with an automatic grade, which this call finds (2002).
  await waitForImports(cookie);
  const graded = await api("/api/finance/plaid/evaluation", cookie);
  expect([200, 2002]).toContain(graded.body.data?.code);
  const id = ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
  return { cookie, id, code: graded.body.data?.verification_code as string };
}

/** Runs an npm script; resolves with its exit code and output (never throws on exit 1). */
async function npmRun(script: string, args: string[]) {
  try {
    const { stdout, stderr } = await run("npx", ["tsx", `scripts/${script}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: "memory://" },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe("signed grades and the public log", () => {
  let trader: { cookie: string; id: number; code: string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grade-log-"));

  beforeAll(async () => {
    trader = await gradedTrader();
  });

  it("publishes the keys as a JWKS with kid and validity dates", async () => {
    const res = await get("/.well-known/grader-keys.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const jwks = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const k of jwks.keys) {
      expect(k).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
      expect(String(k.kid)).toMatch(/^ed25519-/);
      expect(String(k.x)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(typeof k.nbf).toBe("number");
      expect(k).not.toHaveProperty("d");
    }
  });

  it("pages the log with meta.next, in seq order, and refuses a bad `after`", async () => {
    await gradedTrader();
    type Page = {
      data: {
        seq: number;
        hash: string;
        prev_hash: string;
        record: Record<string, unknown>;
        signature: string;
        kid: string;
      }[];
      meta: { next: number | null; head: { seq: number } };
    };
    // Every page, following meta.next: on CI's shared PostgreSQL the other files' grades may fill more than one.
    const entries: Page["data"] = [];
    let head = 0;
    for (let after = 0; ;) {
      const res = await get(`/api/grades/log?after=${after}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as Page;
      entries.push(...page.data);
      head = page.meta.head.seq;
      if (page.meta.next === null) break;
      expect(page.meta.next).toBe(page.data[page.data.length - 1]!.seq);
      after = page.meta.next;
    }
    const body = { data: entries };
    expect(body.data.length).toBeGreaterThanOrEqual(2);
    expect(head).toBe(body.data[body.data.length - 1]!.seq);
    body.data.forEach((e, i) => {
      expect(Object.keys(e).sort()).toEqual(["hash", "kid", "prev_hash", "record", "seq", "signature"]);
      if (i > 0) expect(e.prev_hash).toBe(body.data[i - 1]!.hash);
    });
    const mine = body.data.find((e) => e.record.code === trader.code)!;
    expect(mine.record).toMatchObject({ tier: expect.any(String), accounts: { plaid: 1 }, data: "demo" });
    expect(JSON.stringify(mine.record)).not.toMatch(new RegExp(`"trader":${trader.id}\\b`));
    const later = (await (await get(`/api/grades/log?after=${mine.seq}`)).json()) as { data: { seq: number }[] };
    expect(later.data.every((e) => e.seq > mine.seq)).toBe(true);
    for (const bad of ["-1", "x", "1.5"]) expect((await get(`/api/grades/log?after=${bad}`)).status).toBe(400);
  });

  it("offers the signed record on the verify page, which verify-grade accepts and a changed byte fails", async () => {
    const page = await (await get(`/verify/${trader.code}`)).text();
    expect(page).toContain("the signature and hash check out");
    expect(page).toContain("1 brokerage (Plaid)");
    expect(page).toContain("Demo data (simulated provider histories)");
    expect(page).toContain(`href="/verify/${trader.code}/record.json"`);
    const res = await get(`/verify/${trader.code}/record.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(`${trader.code}.json`);
    const text = await res.text();
    const recordFile = path.join(dir, "record.json");
    const keysFile = path.join(dir, "keys.json");
    fs.writeFileSync(recordFile, text);
    fs.writeFileSync(keysFile, await (await get("/.well-known/grader-keys.json")).text());
    const ok = await npmRun("verify-grade", [recordFile, "--keys", keysFile]);
    expect(ok.out).toContain(`valid: ${trader.code}`);
    expect(ok.code).toBe(0);
    // One byte of the return changed: the signature no longer covers it.
    const tampered = text.replace(
      /"twr": (-?)(\d)/,
      (_m, sign: string, d: string) => `"twr": ${sign}${(Number(d) + 1) % 10}`,
    );
    expect(tampered).not.toBe(text);
    fs.writeFileSync(recordFile, tampered);
    const bad = await npmRun("verify-grade", [recordFile, "--keys", keysFile]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("invalid: the signature does not match the record");
    expect((await get("/verify/GR-ZZZZ-ZZZZ/record.json")).status).toBe(404);
  });

  it("verify-log walks the chain through the API", async () => {
    const ok = await npmRun("verify-log", ["--url", baseUrl()]);
    expect(ok.out).toMatch(/intact: \d+ entries checked/);
    expect(ok.code).toBe(0);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, sessionCookie, signUp, uniqueEmail } from "../support/http";
import { startServer, type RunningServer } from "../support/server";

async function apiPost(path: string, body: unknown, headers: Record<string, string> = {}, base = baseUrl()) {
  return fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("sign-up, sign-in and sessions", () => {
  it("signs up, lands on onboarding, and the session cookie is HttpOnly and SameSite=Lax", async () => {
    const email = uniqueEmail();
    const res = await postForm("/signup", { email: `  ${email.toUpperCase()} `, password: "correct horse battery" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user-questions");
    const set = res.headers.getSetCookie().find((c) => c.startsWith("grader_session="))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    const info = await get("/api/user/info", { cookie: sessionCookie(res) });
    const { data } = (await info.json()) as { data: Record<string, unknown> };
    expect(data.email).toBe(email.toLowerCase());
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining([
        "id",
        "username",
        "email",
        "first_name",
        "last_name",
        "name",
        "avatar",
        "platform_name",
        "is_star",
      ]),
    );
  });

  it("shows field errors, keeps the email and never echoes the password", async () => {
    const res = await postForm("/signup", { email: "not-an-email", password: "short7!" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Enter a valid email address.");
    expect(html).toContain("Use at least 8 characters.");
    expect(html).toContain('value="not-an-email"');
    expect(html).not.toContain("short7!");
  });

  it("accepts any Unicode password and counts code points, not bytes", async () => {
    const password = "🔐🔐🔐🔐 пароль 密码";
    const { email } = await signUp({ password });
    const ok = await postForm("/signin", { email, password });
    expect(ok.status).toBe(302);
    const truncated = await postForm("/signin", { email, password: password.slice(0, -1) });
    expect(truncated.status).toBe(400);
  });

  it("refuses a duplicate email case-insensitively", async () => {
    const { email } = await signUp();
    const res = await postForm("/signup", { email: email.toUpperCase(), password: "another password" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("can&#x27;t be used to create a new account");
  });

  it("gives the same answer for an unknown email and a wrong password", async () => {
    const { email } = await signUp();
    const wrong = await postForm("/signin", { email, password: "not the password" });
    const unknown = await postForm("/signin", { email: uniqueEmail("ghost"), password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    const text = (html: string) => html.match(/<p class="form-error"[^>]*>([^<]*)<\/p>/)?.[1];
    expect(text(await wrong.text())).toBe("Wrong email or password.");
    expect(text(await unknown.text())).toBe("Wrong email or password.");
  });

  it("goes to a safe next after login, else /community", async () => {
    const { email, password } = await signUp();
    const withNext = await postForm("/signin", { email, password, next: "/u/3?tab=x" });
    expect(withNext.headers.get("location")).toBe("/u/3?tab=x");
    const evil = await postForm("/signin", { email, password, next: "//evil.com" });
    expect(evil.headers.get("location")).toBe("/community");
  });

  // Each spelling once named evil.example after normalisation or decoding ("/.//x" was answered "//x").
  const OFFSITE_NEXT = [
    "//evil.example/x",
    "/.//evil.example/x",
    "/a/..//evil.example/x",
    "/%2e//evil.example/x",
    "/%2F%2Fevil.example/x",
    "/%5Cevil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "/\t/evil.example/x",
    "https://evil.example/x",
    "javascript:alert(1)",
  ];

  it("refuses a next that names another origin in any spelling, after sign-in", async () => {
    const { email, password } = await signUp();
    for (const next of OFFSITE_NEXT) {
      const res = await postForm("/signin", { email, password, next });
      expect(res.status, next).toBe(302);
      expect(res.headers.get("location"), next).toBe("/community");
    }
    const dotted = await postForm("/signin", { email, password, next: "/./u/3?tab=x" });
    expect(dotted.headers.get("location")).toBe("/u/3?tab=x");
  });

  it("refuses the same spellings when a signed-in visitor opens /signin or /signup with next", async () => {
    const { cookie } = await signUp();
    for (const page of ["/signin", "/signup"])
      for (const next of OFFSITE_NEXT) {
        const res = await get(`${page}?next=${encodeURIComponent(next)}`, { cookie });
        expect(res.status, `${page} ${next}`).toBe(302);
        expect(res.headers.get("location"), `${page} ${next}`).toBe("/community");
      }
    const kept = await get(`/signin?next=${encodeURIComponent("/./u/3")}&ref=x`, { cookie });
    expect(kept.headers.get("location")).toBe("/u/3?ref=x");
  });

  it("issues a new session id at login and kills the old one", async () => {
    const { email, password, cookie: first } = await signUp();
    const res = await postForm("/signin", { email, password }, { cookie: first });
    const second = sessionCookie(res);
    expect(second).not.toBe(first);
    expect((await get("/api/user/info", { cookie: first })).status).toBe(401);
    expect((await get("/api/user/info", { cookie: second })).status).toBe(200);
  });

  it("logs out: the replayed cookie no longer works", async () => {
    const { cookie } = await signUp();
    const out = await postForm("/logout", {}, { cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/signin");
    expect(out.headers.getSetCookie().join()).toMatch(/grader_session=;.*Max-Age=0/);
    const replay = await get("/community", { cookie });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("/signin");
  });

  it("rejects a filled honeypot", async () => {
    const res = await postForm("/signup", {
      email: uniqueEmail(),
      password: "correct horse battery",
      website: "http://spam",
    });
    expect(res.status).toBe(400);
  });
});

describe("the user API", () => {
  it("registers, logs in with a bearer token and reads the user", async () => {
    const email = uniqueEmail("api");
    const reg = await apiPost("/api/user/register", {
      email,
      password: "correct horse battery",
      username: `api_${Date.now().toString(36)}`,
      first_name: "Ada",
      color: "ignored",
    });
    expect(reg.status).toBe(201);
    const login = await apiPost("/api/user/login", { email, password: "correct horse battery" });
    expect(login.status).toBe(200);
    const { data } = (await login.json()) as { data: { auth_token: string } };
    expect(data.auth_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const info = await get("/api/user/info", { headers: { authorization: `Bearer ${data.auth_token}` } });
    const user = ((await info.json()) as { data: Record<string, unknown> }).data;
    expect(user.email).toBe(email);
    expect(user.first_name).toBe("Ada");
    expect(user).not.toHaveProperty("color");
    expect(user.is_star).toBe(false);
  });

  it("answers 401 with a message for a missing or bad token", async () => {
    const none = await get("/api/user/info");
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toBeTruthy();
    const bad = await get("/api/user/info", { headers: { authorization: "Bearer not-a-real-token" } });
    expect(bad.status).toBe(401);
  });

  it("answers 400 with every problem for a bad body, never 500", async () => {
    const res = await apiPost("/api/user/register", { email: "nope", password: "1" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; fields: Record<string, string> } };
    expect(Object.keys(body.error.fields).sort()).toEqual(["email", "password"]);
    const notJson = await fetch(baseUrl() + "/api/user/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{oops",
    });
    expect(notJson.status).toBe(400);
  });
});

describe("login rate limit", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // A server with the real limits, behind a trusted proxy so this test has its own client address.
    server = await startServer({ RATE_LIMIT_FACTOR: "1", TRUST_PROXY: "loopback" });
  });
  afterAll(() => server.stop());

  it("answers the 11th login in a minute from one IP with 429 and Retry-After", { timeout: 60_000 }, async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    // The limit counts per fixed one-minute window: start early in a window so all 11 land in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await postForm(
        "/signin",
        { email: uniqueEmail("rl"), password: "wrong password" },
        { base: server.url, headers: { "x-forwarded-for": ip } },
      );
      statuses.push(res.status);
      if (i === 10) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it(
    "throttles an account against strangers without locking its owner's own browser out",
    { timeout: 120_000 },
    async () => {
      const net = `198.51.${Math.floor(Math.random() * 250)}`;
      const ip = (i: number) => `${net}.${(i % 250) + 1}`;
      const password = "the owner's password";
      const email = uniqueEmail("owner");
      expect(
        (await postForm("/signup", { email, password }, { base: server.url, headers: { "x-forwarded-for": ip(240) } }))
          .status,
      ).toBe(302);
      const first = await postForm(
        "/signin",
        { email, password },
        { base: server.url, headers: { "x-forwarded-for": ip(0) } },
      );
      expect(first.status).toBe(302);
      const device = first.headers.getSetCookie().find((c) => c.startsWith("grader_device="))!;
      expect(device).toMatch(/HttpOnly/);
      const deviceCookie = device.split(";")[0]!;
      // An attacker spends the account's 100 attempts an hour from many addresses (10 each, under the per-IP limit)…
      let last = 0;
      for (let i = 0; i < 101; i++) {
        const res = await postForm(
          "/signin",
          { email, password: `guess ${i}` },
          { base: server.url, headers: { "x-forwarded-for": ip(1 + Math.floor(i / 9)) } },
        );
        last = res.status;
        if (i < 99) expect(res.status).toBe(400);
      }
      expect(last).toBe(429);
      // …after which even the right password from a stranger's browser waits,
      const stranger = await postForm(
        "/signin",
        { email, password },
        { base: server.url, headers: { "x-forwarded-for": ip(200) } },
      );
      expect(stranger.status).toBe(429);
      // and a forged device cookie changes nothing,
      const forged = await postForm(
        "/signin",
        { email, password },
        {
          base: server.url,
          headers: { "x-forwarded-for": ip(201), cookie: deviceCookie.replace(/.$/, (c) => (c === "A" ? "B" : "A")) },
        },
      );
      expect(forged.status).toBe(429);
      // but the owner's browser, which signed in before, still gets in.
      const owner = await postForm(
        "/signin",
        { email, password },
        { base: server.url, headers: { "x-forwarded-for": ip(202), cookie: deviceCookie } },
      );
      expect(owner.status).toBe(302);
      expect(owner.headers.getSetCookie().some((c) => c.startsWith("grader_session="))).toBe(true);
    },
  );

  it("limits sign-ups per e-mail, counted alike on the page and the API (DECISIONS 5)", async () => {
    const net = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const email = uniqueEmail("per-email");
    const password = "correct horse battery";
    // Each attempt from its own address, so only the per-e-mail limit (5 an hour) can refuse.
    const page = async (i: number) =>
      postForm("/signup", { email, password }, { base: server.url, headers: { "x-forwarded-for": `${net}${i}` } });
    const api = async (i: number) =>
      apiPost("/api/user/register", { email, password }, { "x-forwarded-for": `${net}${i}` }, server.url);
    const statuses = [
      (await page(1)).status,
      (await api(2)).status,
      (await page(3)).status,
      (await api(4)).status,
      (await page(5)).status,
    ];
    expect(statuses).toEqual([302, 409, 400, 409, 400]);
    const sixth = await api(6);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await sixth.json()) as { error: { message: string } }).error.message).toMatch(/Too many/);
    expect((await page(7)).status).toBe(429);
  });
});

/** A form POST from a loopback address of our choosing, so no other test shares its client IP. */
function postFrom(
  localAddress: string,
  base: string,
  route: string,
  fields: Record<string, string>,
  headers: Record<string, string>,
): Promise<number> {
  const url = new URL(route, base);
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
          origin: base,
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the client IP without a trusted proxy", () => {
  // The server's own PGlite folder (or DATABASE_URL's PostgreSQL), read in process once it stops.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "grader-ip-"));
  const client = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const email = uniqueEmail("forged");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_FACTOR: "1", DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "records the connection's address in the session and limits it, whatever X-Forwarded-For says",
    { timeout: 120_000 },
    async () => {
      const forged = (i: number) => ({ "x-forwarded-for": `203.0.113.${i}` });
      expect(
        await postFrom(client, server.url, "/signup", { email, password: "correct horse battery" }, forged(99)),
      ).toBe(302);
      // The limit counts per fixed one-minute window: start early in a window so all attempts land in it.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push(await postFrom(client, server.url, "/signin", { email, password: `guess ${i}` }, forged(i)));
      expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
      await server.stop();

      if (!process.env.DATABASE_URL) process.env.DATA_DIR = dataDir;
      const { closeDb, getDb } = await import("~/server/platform/db.server");
      const db = await getDb();
      const sessions = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select("sessions.ip")
        .where("users.email", "=", email)
        .execute();
      await closeDb();
      expect(sessions).toEqual([{ ip: client }]);
    },
  );
});

import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp } from "../support/http";

// Inputs no browser of ours sends, each answered with a 4xx and a reason, never a 500.

async function api(path: string, cookie: string, body: string, headers: Record<string, string> = {}) {
  return fetch(baseUrl() + path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl(), cookie, ...headers },
    body,
  });
}

describe("a malformed session cookie", () => {
  it("counts as no session on every page, the landing included", async () => {
    for (const value of ["%E0%A4%A", "%", "%zz", "abc%"]) {
      const landing = await get("/", { headers: { cookie: `grader_session=${value}` } });
      expect(landing.status).toBe(200);
      const pricing = await get("/pricing", { headers: { cookie: `other=1; grader_session=${value}` } });
      expect(pricing.status).toBe(200);
      // A page that needs a session treats the visitor as signed out.
      const profile = await get("/profile", { headers: { cookie: `grader_session=${value}` } });
      expect(profile.status).toBe(302);
      expect(profile.headers.get("location")).toMatch(/^\/signin/);
      const info = await get("/api/user/info", { headers: { cookie: `grader_session=${value}` } });
      expect(info.status).toBe(401);
    }
  });
});

describe("ids out of range", () => {
  let cookie: string;
  beforeAll(async () => {
    ({ cookie } = await signUp());
  });

  const badIds = ["1e308", "9007199254740992", "-1", "1.5", "2147483648", "0", "0x10"];

  it("answers the JSON API with 400 naming the field", async () => {
    for (const raw of badIds) {
      // As a JSON number too ("0x10" is 16 there, a valid id: not found).
      const res = await api(
        "/api/finance/plaid/import",
        cookie,
        `{"linked_account_id": ${JSON.stringify(Number(raw))}}`,
      );
      expect(res.status, raw).toBe(raw === "0x10" ? 404 : 400);
      const res2 = await api("/api/finance/plaid/import", cookie, JSON.stringify({ linked_account_id: raw }));
      expect(res2.status, raw).toBe(400);
      expect(((await res2.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty(
        "linked_account_id",
      );
    }
    const literal = await api("/api/finance/plaid/import", cookie, `{"linked_account_id": 1e308}`);
    expect(literal.status).toBe(400);
    const linkToken = await api("/api/finance/plaid/link-token", cookie, `{"linked_account_id": 9007199254740993}`);
    expect(linkToken.status).toBe(400);
  });

  it("answers query and path ids with 400/404", async () => {
    for (const raw of badIds) {
      const trades = await get(`/api/portal/trades?user_id=${encodeURIComponent(raw)}`, { cookie });
      expect(trades.status, raw).toBe(400);
      for (const path of [`/u/${raw}`, `/share/open_graph/${raw}`, `/posts/${raw}`, `/blogs/${raw}`]) {
        expect((await get(path, { cookie })).status, path).toBe(404);
      }
      const card = await api(`/api/share/image/${encodeURIComponent(raw)}`, cookie, "{}");
      expect(card.status, raw).toBe(404);
    }
  });

  it("answers form ids with a 4xx page", async () => {
    for (const raw of badIds) {
      const unstake = await postForm("/staking", { intent: "unstake", stake_id: raw }, { cookie });
      expect(unstake.status, raw).toBe(404);
      const wallet = await postForm("/airdrop", { intent: "register_wallet", linked_account_id: raw }, { cookie });
      expect(wallet.status, raw).toBe(400);
      const unlink = await postForm(
        "/profile/account",
        { intent: "unlink", linked_account_id: raw, id: raw },
        { cookie },
      );
      expect(unlink.status, raw).toBeLessThan(500);
    }
  });
});

/** A raw HTTP/1.1 request, so the test controls Content-Length and Transfer-Encoding itself. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
  chunked = false,
): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl() + path);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { origin: baseUrl(), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on("error", (error) => reject(error));
    if (chunked) {
      req.write(body ?? "");
      req.end();
    } else req.end(body);
  });
}

describe("body size limits", () => {
  it("refuse a 10 MB JSON body with 413 before reading it", async () => {
    const declared = await rawPost("/api/user/login", {
      "content-type": "application/json",
      "content-length": String(10 * 1024 * 1024),
    });
    expect(declared.status).toBe(413);
    expect(declared.text).toContain("too large");
    // A body actually sent: still 413, and the server keeps answering others.
    const big = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const res = await fetch(baseUrl() + "/api/user/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl() },
      body: big,
    }).catch((error: Error) => error);
    if (!(res instanceof Error)) expect(res.status).toBe(413);
    expect((await get("/healthz")).status).toBe(200);
  });

  it("refuse a large form post, and an avatar upload over its own larger limit", async () => {
    const form = await rawPost("/signin", {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(100 * 1024),
    });
    expect(form.status).toBe(413);
    const avatar = await rawPost("/user/settings", {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(3 * 1024 * 1024),
    });
    expect(avatar.status).toBe(413);
    expect(avatar.text).toContain("at most 2112 KB");
  });

  it("answer a body without a declared length with 411", async () => {
    const res = await rawPost(
      "/api/user/login",
      { "content-type": "application/json", "transfer-encoding": "chunked" },
      '{"email":"a@b.c"}',
      true,
    );
    expect(res.status).toBe(411);
  });

  it("let an ordinary form through", async () => {
    const res = await postForm("/signin", { email: "nobody@example.com", password: "wrong password" });
    expect(res.status).toBe(400);
  });
});

describe("a POST without Origin", () => {
  it("is refused when its Referer is another site", async () => {
    const foreign = await postForm(
      "/signin",
      { email: "a@example.com", password: "whatever pw" },
      { origin: null, headers: { referer: "https://evil.example/form" } },
    );
    expect(foreign.status).toBe(403);
    const own = await postForm(
      "/signin",
      { email: "a@example.com", password: "whatever pw" },
      { origin: null, headers: { referer: `${baseUrl()}/signin` } },
    );
    expect(own.status).toBe(400);
  });
});

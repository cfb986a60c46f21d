import fs from "node:fs";
import path from "node:path";
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { ZodTypeAny } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { apiRegistry, openApiDocument } from "~/server/http/openapi.server";
import { baseUrl, signUp, waitForImports } from "../support/http";

// The served OpenAPI document is the one generated from the routes' zod schemas, covers every JSON
// route, and real answers (anonymous and signed in, success and 4xx) match the response schema it
// documents for their status — checked with the very zod objects the document was generated from.

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>
  >;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
};

const routes = apiRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : []));

function documented(method: string, docPath: string): RouteConfig {
  const route = routes.find((r) => r.method === method && r.path === docPath);
  if (!route) throw new Error(`${method} ${docPath} is not in the OpenAPI registry`);
  return route;
}

/** Fetches and checks the answer against the documented response for its status; returns the body. */
async function call(
  method: "get" | "post",
  docPath: string,
  url: string,
  opts: { auth?: Record<string, string>; body?: unknown } = {},
) {
  const headers: Record<string, string> = { ...opts.auth };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(baseUrl() + url, {
    method: method.toUpperCase(),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  const response = documented(method, docPath).responses[res.status];
  expect(
    response,
    `${method.toUpperCase()} ${url} answered ${res.status}, which is not documented: ${text.slice(0, 300)}`,
  ).toBeDefined();
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!;
  const media = (response as { content?: Record<string, { schema: ZodTypeAny }> }).content?.[type];
  expect(media, `${url}: ${res.status} ${type} is not documented`).toBeDefined();
  const body = type === "application/json" ? JSON.parse(text) : text;
  const parsed = media!.schema.safeParse(body);
  expect(
    parsed.success ? [] : parsed.error.issues,
    `${method.toUpperCase()} ${url} ${res.status}: ${text.slice(0, 300)}`,
  ).toEqual([]);
  return { status: res.status, body };
}

const demoToken = () =>
  `public-sandbox-user_good_oa${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

describe("OpenAPI document", () => {
  let doc: Doc;
  beforeAll(async () => {
    const res = await fetch(baseUrl() + "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    doc = (await res.json()) as Doc;
  });

  it("is OpenAPI 3.1, generated from the routes' zod schemas, with the envelope, the error shape and the session cookie", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "grader_session",
    });
    expect(doc.components.schemas.Error).toMatchObject({
      required: ["error"],
      properties: { error: { required: ["message"], properties: { message: { type: "string" } } } },
    });
    expect(doc.components.schemas.User).toMatchObject({ properties: { email: { type: "string" } } });
    const info = doc.paths["/api/user/info"]!.get!;
    expect(info.responses["200"]!.content!["application/json"]!.schema).toEqual({
      type: "object",
      properties: { data: { $ref: "#/components/schemas/User" } },
      required: ["data"],
    });
    expect(info.responses["401"]!.content!["application/json"]!.schema.$ref).toBe("#/components/schemas/Error");
  });

  it("covers every JSON route in app/routes", () => {
    const files = fs
      .readdirSync(path.resolve(import.meta.dirname, "../../app/routes"), { recursive: true, encoding: "utf8" })
      .map((f) => path.basename(f))
      .filter((f) => f.startsWith("api."));
    // The Apple callback is a form post answered with a redirect (OAuth), not a JSON call.
    const json = files.filter((f) => f !== "api.user.oauth.apple-callback.ts");
    expect(json.length).toBeGreaterThan(30);
    for (const file of json) {
      const docPath =
        "/" +
        file
          .replace(/\.ts$/, "")
          .replace(/\[\.\]/g, "\u0000")
          .split(".")
          .map((s) => s.replace(/\u0000/g, ".").replace(/^\$(.+)$/, "{$1}"))
          .join("/");
      expect(doc.paths[docPath], `${file} → ${docPath}`).toBeDefined();
    }
  });

  it("matches real anonymous answers, success and 4xx", async () => {
    await call("get", "/api/user/info", "/api/user/info").then((r) => expect(r.status).toBe(401));
    await call("post", "/api/user/login", "/api/user/login", {
      body: { email: "nobody@example.com", password: "wrong password" },
    }).then((r) => expect(r.status).toBe(401));
    const badLogin = await call("post", "/api/user/login", "/api/user/login", { body: { email: "not an email" } });
    expect(badLogin.status).toBe(400);
    expect(Object.keys(badLogin.body.error.fields)).toEqual(expect.arrayContaining(["email", "password"]));
    const log = await call("get", "/api/grades/log", "/api/grades/log");
    expect(log.status).toBe(200);
    expect(log.body.meta.head.seq).toBeGreaterThanOrEqual(0);
    await call("get", "/api/grades/log", "/api/grades/log?after=x").then((r) =>
      expect(r.body.error.fields.after).toBeTruthy(),
    );
    await call("get", "/api/page-views", "/api/page-views?path=/blogs/Aq7TrX8B").then((r) =>
      expect(r.body.data.path).toBe("/blogs/Aq7TrX8B"),
    );
    await call("get", "/api/page-views", "/api/page-views?path=/admin").then((r) => expect(r.status).toBe(400));
    await call("get", "/api/share/proxy", "/api/share/proxy?file_url=http://example.com/x.png").then((r) =>
      expect(r.status).toBe(400),
    );
  });

  it("matches real signed-in answers (bearer token and session cookie), success and 4xx", async () => {
    const email = `oa-${Date.now().toString(36)}@example.com`;
    const registered = await call("post", "/api/user/register", "/api/user/register", {
      body: { email, password: "correct horse battery", first_name: "Ada" },
    });
    expect(registered.status).toBe(201);
    const bearer = { authorization: `Bearer ${registered.body.data.auth_token}` };
    await call("post", "/api/user/register", "/api/user/register", {
      body: { email, password: "correct horse battery" },
    }).then((r) => expect(r.status).toBe(409));
    await call("get", "/api/user/info", "/api/user/info", { auth: bearer }).then((r) =>
      expect(r.body.data.email).toBe(email),
    );

    const { cookie } = await signUp();
    const auth = { cookie };
    const linked = await call(
      "post",
      "/api/finance/plaid/exchange-public-token",
      "/api/finance/plaid/exchange-public-token",
      { auth, body: { public_token: demoToken() } },
    );
    expect(linked.status).toBe(201);
    await call("post", "/api/finance/plaid/exchange-public-token", "/api/finance/plaid/exchange-public-token", {
      auth,
      body: {},
    }).then((r) => expect(r.status).toBe(400));
    await waitForImports(cookie);
    await call("get", "/api/portal/imports", "/api/portal/imports", { auth }).then((r) =>
      expect(r.body.data[0].state).toBe("done"),
    );
    const accounts = await call("get", "/api/finance/plaid/accounts", "/api/finance/plaid/accounts", { auth });
    expect(accounts.body.data[0].trades).toBeGreaterThan(0);
    const graded = await call("post", "/api/finance/plaid/evaluation", "/api/finance/plaid/evaluation", { auth });
    expect([200, 2002]).toContain(graded.body.data.code);
    const me = (await call("get", "/api/user/info", "/api/user/info", { auth })).body.data.id as number;

    await call("get", "/api/portal/trades", "/api/portal/trades?page_size=5", { auth }).then((r) =>
      expect(r.body.data).toHaveLength(5),
    );
    await call("get", "/api/portal/trades", "/api/portal/trades?sort_by=nope", { auth }).then((r) =>
      expect(r.status).toBe(400),
    );
    await call("get", "/api/portal/trades", "/api/portal/trades?user_id=1e308", { auth }).then((r) =>
      expect(r.status).toBe(400),
    );
    await call("get", "/api/portal/holdings", "/api/portal/holdings", { auth }).then((r) => expect(r.status).toBe(200));
    await call("get", "/api/portal/trades.csv", "/api/portal/trades.csv", { auth }).then((r) =>
      expect(r.body).toMatch(/^id,time,symbol/),
    );
    await call("get", "/api/portal/round_trips", "/api/portal/round_trips?page_size=3", { auth }).then((r) =>
      expect(r.body.meta.page_size).toBe(3),
    );
    await call("get", "/api/portal/round_trips", "/api/portal/round_trips?from=2020-13-40", { auth }).then((r) =>
      expect(r.body.error.fields.from).toBeTruthy(),
    );
    await call("get", "/api/portal/ledger", "/api/portal/ledger", { auth }).then((r) =>
      expect(r.body.meta.ledgerDigest).toBeTruthy(),
    );
    await call("get", "/api/portal/ledger", "/api/portal/ledger?evaluation_id=abc", { auth }).then((r) =>
      expect(r.body.error.fields.evaluation_id).toBeTruthy(),
    );
    await call("get", "/api/portal/ledger", "/api/portal/ledger?evaluation_id=2147483647", { auth }).then((r) =>
      expect(r.status).toBe(404),
    );
    await call("get", "/api/portal/market/traders", "/api/portal/market/traders?page_size=5", { auth }).then((r) =>
      expect(r.status).toBe(200),
    );
    await call("get", "/api/portal/market/traders", "/api/portal/market/traders?tier=Wood", { auth }).then((r) =>
      expect(r.status).toBe(400),
    );
    await call("get", "/api/portal/market/trades", "/api/portal/market/trades", { auth }).then((r) =>
      expect(r.status).toBe(200),
    );
    await call("get", "/api/portal/search/trader", "/api/portal/search/trader?keyword=ada", { auth }).then((r) =>
      expect(r.status).toBe(200),
    );
    await call("get", "/api/portal/search/trader", "/api/portal/search/trader?keyword=a", { auth }).then((r) =>
      expect(r.body.error.fields.keyword).toBeTruthy(),
    );
    // The import's end is a notification ("import_done"), with the unread count in meta.
    await call("get", "/api/portal/notifications", "/api/portal/notifications", { auth }).then((r) =>
      expect(r.body.meta.unread).toBeGreaterThan(0),
    );
    await call("get", "/api/portal/notifications", "/api/portal/notifications?order=asc", { auth }).then((r) =>
      expect(r.status).toBe(400),
    );

    const share = await call("post", "/api/share/image/{userId}", `/api/share/image/${me}`, {
      auth,
      body: { format: "story" },
    });
    expect(share.body.data).toMatchObject({ format: "story", width: 1080, height: 1350 });
    await call("post", "/api/share/image/{userId}", "/api/share/image/2147483647", { auth }).then((r) =>
      expect(r.status).toBe(404),
    );
    await call("post", "/api/airdrop/share", "/api/airdrop/share", { auth }).then((r) =>
      expect(r.body.data.task).toBe("share_card"),
    );
    await call("post", "/api/airdrop/share", "/api/airdrop/share", { auth: bearer }).then((r) =>
      expect(r.status).toBe(409),
    );

    await call("post", "/api/evm/nonce", "/api/evm/nonce", {
      auth,
      body: { wallet_address: "7E5F4552091A69125d5DfCb7b8C2659029395Bdf" },
    }).then((r) => expect(r.body.data.message).toContain("Nonce:"));
    await call("post", "/api/evm/nonce", "/api/evm/nonce", { auth, body: { wallet_address: "not-an-address" } }).then(
      (r) => expect(r.status).toBe(400),
    );
    await call("post", "/api/solana/wallet", "/api/solana/wallet", { auth, body: {} }).then((r) =>
      expect(r.body.error.fields.wallet_address).toBeTruthy(),
    );
    await call("post", "/api/finance/plaid/link-token", "/api/finance/plaid/link-token", { auth }).then((r) =>
      expect(r.body.data.link_token).toBeTruthy(),
    );
    await call("post", "/api/finance/plaid/link-token", "/api/finance/plaid/link-token", {
      auth,
      body: { linked_account_id: "x" },
    }).then((r) => expect(r.status).toBe(400));
    await call("post", "/api/finance/plaid/import", "/api/finance/plaid/import", {
      auth,
      body: { linked_account_id: accounts.body.data[0].id },
    }).then((r) => expect(r.status).toBe(202));
    await call("post", "/api/finance/plaid/import", "/api/finance/plaid/import", {
      auth: bearer,
      body: { linked_account_id: accounts.body.data[0].id },
    }).then((r) => expect(r.status).toBe(404));
    await call("post", "/api/stripe/create_stripe_session", "/api/stripe/create_stripe_session", {
      auth,
      body: { price_id: "price_nope" },
    }).then((r) => expect(r.body.error.fields.price_id).toBeTruthy());
    await waitForImports(cookie);
  });

  it("refuses an answer that breaks the documented shape (the check can fail)", () => {
    const ok = documented("get", "/api/user/info").responses[200] as {
      content: Record<string, { schema: ZodTypeAny }>;
    };
    expect(ok.content["application/json"]!.schema.safeParse({ data: { id: "1", email: "a@b.c" } }).success).toBe(false);
  });
});

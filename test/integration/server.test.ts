import http from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp } from "../support/http";
import { startServer } from "../support/server";

describe("server.ts", () => {
  it("answers /healthz with the database reachable", async () => {
    const res = await get("/healthz");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; db: string };
    expect(body.status).toBe("ok");
    expect(["pglite", "postgres"]).toContain(body.db);
    expect(body.db).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
  });

  it("sends an enforced CSP with a fresh nonce that the page's scripts carry", async () => {
    const a = await get("/signin");
    const b = await get("/signin");
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(a.headers.get("content-security-policy-report-only")).toBeNull();
    const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
    expect(b.headers.get("content-security-policy")).not.toContain(nonce);
    const html = await a.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(a.headers.get("x-powered-by")).toBeNull();
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves build assets immutable and compresses pages", async () => {
    const html = await (await get("/signin")).text();
    const asset = html.match(/\/build\/[^"]+\.js/)![0];
    const res = await get(asset);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    const page = await fetch(baseUrl() + "/signin", { headers: { "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect(page.headers.get("vary")).toMatch(/accept-encoding/i);
    // A client that takes no encoding gets the page as is, without compression's bookkeeping.
    const plain = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(baseUrl() + "/signin", resolve).on("error", reject),
    );
    const body = await new Promise<string>((resolve) => {
      let text = "";
      plain
        .setEncoding("utf8")
        .on("data", (chunk: string) => (text += chunk))
        .on("end", () => resolve(text));
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary ?? "").not.toMatch(/accept-encoding/i);
    expect(body).toContain("</html>");
  });

  it("refuses a foreign-Origin or cross-site POST with 403 and accepts our own", async () => {
    const foreign = await postForm("/signin", { email: "a@b.co", password: "x" }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const crossSite = await postForm(
      "/contact",
      { name: "a" },
      { origin: null, headers: { "sec-fetch-site": "cross-site" } },
    );
    expect(crossSite.status).toBe(403);
    const own = await postForm("/signin", { email: "nobody@example.com", password: "wrong-password" });
    expect(own.status).toBe(400);
  });

  it("answers 400 with the reason when a page's form post is not a form (JSON, text, broken multipart, no body)", async () => {
    const { cookie } = await signUp();
    const bodies: [string | null, string][] = [
      ["application/json", JSON.stringify({ body: "hi" })],
      ["text/plain", "body=hi"],
      ["multipart/form-data; boundary=zz", "not a multipart body"],
      [null, ""],
    ];
    for (const path of ["/community", "/contact", "/signin", "/user/settings/change-password"]) {
      for (const [type, body] of bodies) {
        const res = await fetch(baseUrl() + path, {
          method: "POST",
          body,
          headers: { cookie, origin: baseUrl(), ...(type ? { "content-type": type } : {}) },
          redirect: "manual",
        });
        expect(res.status, `${path} ${type}`).toBe(400);
        const html = await res.text();
        expect(html).toContain(
          "This form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.",
        );
        expect(html).not.toContain("Something went wrong");
      }
    }
  });

  it("never fails on a NUL character: dropped from form fields, refused in addresses", async () => {
    const { cookie } = await signUp();
    await postForm("/user-questions", { username: `nul_${Date.now().toString(36)}`, experience: "1-3" }, { cookie });
    const posted = await postForm("/community", { body: "hi\u0000there" }, { cookie });
    expect(posted.status).toBe(303);
    const feed = (await (await get("/community?_data=routes%2Fcommunity", { cookie })).json()) as {
      posts: { body: string }[];
    };
    expect(feed.posts.map((p) => p.body)).toContain("hithere");
    expect(
      (
        await postForm(
          "/contact",
          { name: "A\u0000B", email: "a@example.com", message: "Hello there, a question about grades." },
          { cookie },
        )
      ).status,
    ).toBeLessThan(500);
    for (const path of ["/search?keyword=%00%00%00", "/api/portal/search/trader?keyword=ab%00c", "/u/1%00"]) {
      expect((await get(path, { cookie })).status, path).toBe(400);
    }
  });

  it("answers unknown paths with 404 and the home link", async () => {
    const res = await get("/definitely/not/here");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Nothing to see here!");
    expect(html).toMatch(/href="\/"/);
  });

  it("caches anonymous public pages with an ETag, fresh nonce per response, and revalidates with 304", async () => {
    const a = await get("/white-paper");
    const b = await get("/white-paper");
    const etag = a.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(b.headers.get("etag")).toBe(etag);
    expect(a.headers.get("cache-control")).toBe("private, no-cache");
    const nonceA = a.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1]!;
    const nonceB = b.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1]!;
    expect(nonceA).not.toBe(nonceB);
    expect(await a.text()).toContain(`nonce="${nonceA}"`);
    expect(await b.text()).toContain(`nonce="${nonceB}"`);
    const revalidated = await get("/white-paper", { headers: { "if-none-match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
  });

  it("never caches a page for a signed-in visitor", async () => {
    const res = await get("/blogs", { cookie: "grader_session=whatever" });
    expect(res.headers.get("etag")).toBeNull();
    expect(res.status).toBe(200);
  });

  it("stops on a bad environment value with a message naming the variable", async () => {
    await expect(startServer({ PORT: "not-a-port" })).rejects.toThrow(/PORT/);
  });

  it("shuts down gracefully on SIGTERM and exits 0", async () => {
    const server = await startServer();
    const inFlight = fetch(server.url + "/signin").then((r) => r.status);
    await new Promise((r) => setTimeout(r, 5));
    const code = await server.stop();
    expect(code).toBe(0);
    expect(await inFlight.catch(() => "refused")).toBe(200);
    expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });
});

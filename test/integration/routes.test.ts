import { resolve } from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { articles } from "~/content/blog";
import { sections } from "~/content/white-paper";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import { memberRoutes, publicRoutes, withSelf } from "../support/routes";

function h1(html: string): string {
  const m = html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/);
  return (m?.[1] ?? "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .trim();
}

function expectHeading(html: string, heading: RegExp | string) {
  const text = h1(html);
  if (typeof heading === "string") expect(text).toBe(heading);
  else expect(text).toMatch(heading);
}

describe("every route of PRODUCT §2 renders a real page", () => {
  let cookie: string;
  let selfId: number;
  beforeAll(async () => {
    ({ cookie } = await signUp());
    const info = await get("/api/user/info", { cookie });
    selfId = ((await info.json()) as { data: { id: number } }).data.id;
  });

  it.each(publicRoutes)("$path answers for a visitor", async ({ path, heading, status }) => {
    const res = await get(path);
    expect(res.status).toBe(status ?? 200);
    const html = await res.text();
    expect(html).toContain('class="site-header"');
    expect(html).toContain('class="site-footer"');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expectHeading(html, heading);
  });

  it.each([
    ["/u/{self}/transactions?sort_by=nope", 'aria-label="Trader"'],
    ["/profile/posts?page=0", 'aria-label="Profile"'],
    ["/market/traders?tier=Wood", 'aria-label="Market"'],
  ])("a failing tab (%s) keeps the layout's header and tabs, and says why", async (path, tabs) => {
    const res = await get(withSelf(path, selfId), { cookie });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('class="site-header"');
    expect(html).toContain(tabs);
    expect(html).toContain("We couldn’t handle that request");
  });

  it.each([
    ["/messages/1/reply", 404],
    ["/white-paper/no-such-section", 404],
    ["/posts/999999999", 404],
  ])("a failing page with no layout of its own (%s) keeps the site's header", async (path, status) => {
    const res = await get(path, { cookie });
    expect(res.status).toBe(status);
    const html = await res.text();
    expect(html).toContain('class="site-header"');
    expect(html).toContain("Nothing to see here!");
    expect(html).toContain("<title>Nothing to see here! · Grader</title>");
  });

  it("gives every layout (a route whose pages render inside it) an error boundary of its own", async () => {
    const build = (await import(resolve("build/index.js"))) as ServerBuild;
    const routes = Object.values(build.routes);
    const layouts = [...new Set(routes.filter((r) => r.module.default && r.parentId).map((r) => r.parentId!))];
    expect(layouts).toEqual(
      expect.arrayContaining(["root", "routes/profile", "routes/u.$id", "routes/market", "routes/admin"]),
    );
    for (const id of layouts) expect(build.routes[id]!.module.ErrorBoundary, id).toBeTypeOf("function");
  });

  it.each(memberRoutes)("$path answers for a signed-in user", async ({ path, heading, status }) => {
    const res = await get(withSelf(path, selfId), { cookie });
    expect(res.status).toBe(status ?? 200);
    expectHeading(await res.text(), heading);
  });

  it.each(memberRoutes.filter((r) => !r.status))(
    "$path sends a visitor to /signin (next only for /u/)",
    async ({ path }) => {
      const real = withSelf(path, selfId);
      const res = await get(real);
      expect(res.status).toBe(302);
      const expected = real.startsWith("/u/") ? `/signin?next=${encodeURIComponent(real)}` : "/signin";
      expect(res.headers.get("location")).toBe(expected);
    },
  );

  it("gives every page a title of its own", async () => {
    // One page, several addresses: the landing at / and /landing, a profile's index and its posts
    // tab, the mobile menu's settings, a page with its query.
    const same: Record<string, string> = {
      "/landing": "/",
      "/profile": "/profile/posts",
      "/u/{self}": "/u/{self}/posts",
      "/portal/settings": "/user/settings",
    };
    const pageOf = (path: string) => same[path.split("?")[0]!] ?? path.split("?")[0]!;
    const pages = new Map<string, Set<string>>();
    for (const { path, auth, status } of [...publicRoutes, ...memberRoutes]) {
      if (status === 404) continue; // "Nothing to see here!" is one page wherever it answers
      const html = await (await get(withSelf(path, selfId), auth ? { cookie } : {})).text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
      expect(title, path).toMatch(/\p{L}{2}/u);
      pages.set(title, (pages.get(title) ?? new Set()).add(pageOf(path)));
    }
    const shared = [...pages].filter(([, paths]) => paths.size > 1).map(([title, paths]) => `${title}: ${[...paths]}`);
    expect(shared).toEqual([]);
  });

  it("gives every page route in the build a title of its own, from its own meta", async () => {
    // From the route files, so a new page without a title fails here: each page (a route that
    // renders and has no page inside it) names its own meta, whose title is real and not another
    // page's. Titles that depend on the loader's data are read from the pages below.
    const build = (await import(resolve("build/index.js"))) as ServerBuild;
    const routes = Object.values(build.routes);
    const pages = routes.filter(
      (r) => r.module.default && !routes.some((c) => c.parentId === r.id && c.module.default),
    );
    // One page, two addresses (or a title that names its data: read over HTTP below).
    const same = [
      ["routes/_index", "routes/landing"],
      ["routes/profile._index", "routes/profile.posts"],
      ["routes/u.$id._index", "routes/u.$id.posts"],
      ["routes/portal.settings", "routes/user.settings._index"],
      ["routes/white-paper._index", "routes/white-paper.$section"],
    ];
    const pageOf = (id: string) => same.find((ids) => ids.includes(id))?.[0] ?? id;
    const landing = "Grader — Grade Your Trade, Share Your Success";
    const byTitle = new Map<string, Set<string>>();
    for (const r of pages) {
      if (r.id === "routes/$") continue; // the 404 page: "Nothing to see here!" (tested above)
      expect(r.module.meta, `${r.id} has no meta of its own`).toBeTypeOf("function");
      const meta = r.module.meta!({
        data: undefined,
        params: {},
        location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
        matches: [],
        error: undefined,
      } as never) as { title?: string }[];
      const title = meta.find((m) => m.title !== undefined)?.title ?? "";
      expect(title, r.id).toMatch(/\p{L}{2}/u);
      if (pageOf(r.id) !== "routes/_index") expect(title, r.id).not.toBe(landing);
      byTitle.set(title, (byTitle.get(title) ?? new Set()).add(pageOf(r.id)));
    }
    const shared = [...byTitle].filter(([, ids]) => ids.size > 1).map(([title, ids]) => `${title}: ${[...ids]}`);
    expect(shared).toEqual([]);
  });

  it("titles each blog article, white paper section, grade record and evaluation after itself", async () => {
    const title = async (path: string, cookie?: string) => {
      const res = await get(path, cookie ? { cookie } : {});
      expect(res.status, path).toBe(200);
      return /<title>([^<]*)<\/title>/.exec(await res.text())?.[1] ?? "";
    };
    const seen = new Map<string, string>();
    const expectOwn = (path: string, t: string) => {
      expect(t, path).toMatch(/\p{L}{2}/u);
      expect(seen.get(t), `${path} has the title of ${seen.get(t)}`).toBeUndefined();
      seen.set(t, path);
    };
    for (const path of ["/", "/blogs", "/white-paper", "/verify"]) seen.set(await title(path), path);
    for (const a of articles) expectOwn(`/blogs/${a.id}`, await title(`/blogs/${a.id}`));
    for (const s of sections) expectOwn(`/white-paper/${s.slug}`, await title(`/white-paper/${s.slug}`));
    // A graded trader: the evaluation's run page, the record of the grade's code, the share page.
    const trader = await signUp();
    await exchange(baseUrl(), trader.cookie, `user_good_titles${Date.now().toString(36)}`);
    await waitForImports(trader.cookie, { timeoutMs: 60_000 });
    const run = await postForm("/evaluate", {}, { cookie: trader.cookie });
    const runPath = new URL(run.headers.get("location") ?? "", baseUrl()).pathname;
    expect(runPath).toMatch(/^\/evaluate\/runs\/\d+$/);
    expectOwn(runPath, await title(runPath, trader.cookie));
    // The run page sends the trader on to the stats once the job is done.
    for (let i = 0; i < 200; i++) {
      const res = await fetch(baseUrl() + runPath, { headers: { cookie: trader.cookie }, redirect: "manual" });
      if (res.status >= 300) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const info = (await (await get("/api/user/info", { cookie: trader.cookie })).json()) as { data: { id: number } };
    const graded = (await (
      await fetch(baseUrl() + "/api/finance/plaid/evaluation", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: trader.cookie },
        body: "{}",
      })
    ).json()) as { data: { verification_code: string } };
    expectOwn("/verify/:code", await title(`/verify/${graded.data.verification_code}`));
    expectOwn("/share/open_graph/:id", await title(`/share/open_graph/${info.data.id}`));
  }, 90_000);

  it("never posts a form to an ?index address, which would show in the address bar after a refusal", async () => {
    // A post on the community page, so its like, reply and report forms are rendered too.
    expect((await postForm("/community", { body: "A post with forms" }, { cookie })).status).toBe(303);
    for (const { path, auth, status } of [...publicRoutes, ...memberRoutes]) {
      if (status === 404) continue;
      const html = await (await get(withSelf(path, selfId), auth ? { cookie } : {})).text();
      const actions = [...html.matchAll(/<form[^>]*\saction="([^"]*)"/g)].map((m) => m[1]!);
      expect(
        actions.filter((a) => /[?&]index\b/.test(a)),
        path,
      ).toEqual([]);
    }
  });

  it("sends a logged-in visitor from the landing and auth pages to /community, or to next first", async () => {
    for (const path of ["/", "/landing", "/signin", "/signup"]) {
      const res = await get(path, { cookie });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe("/community");
    }
    const res = await get("/signin?next=%2Fu%2F5&ref=x", { cookie });
    expect(res.headers.get("location")).toBe("/u/5?ref=x");
    const evil = await get("/signin?next=%2F%2Fevil.com", { cookie });
    expect(evil.headers.get("location")).toBe("/community");
  });

  it("renders the mobile landing for a phone and the desktop one otherwise", async () => {
    const phone = await get("/", {
      headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" },
    });
    expect(await phone.text()).toContain('data-variant="mobile"');
    const desktop = await get("/", { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" } });
    expect(await desktop.text()).toContain('data-variant="desktop"');
  });

  it("shows the logged-in header structure to members and the visitor one to visitors", async () => {
    const member = await (await get("/community", { cookie })).text();
    expect(member).toContain('role="search"');
    expect(member).toContain("Get Grade");
    expect(member).toContain("Logout");
    expect(member).toMatch(
      /href="\/community"[^>]*aria-label="Grader home"|aria-label="Grader home"[^>]*href="\/community"/,
    );
    const visitor = await (await get("/blogs")).text();
    for (const label of [
      "How it works",
      "Features",
      "Roadmap",
      "White Paper",
      "Airdrop",
      "Blogs",
      "Log in",
      "Join us for free",
    ]) {
      expect(visitor).toContain(label);
    }
    expect(visitor).toMatch(/href="\/"[^>]*aria-label="Grader home"/);
  });
});

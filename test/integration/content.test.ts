import { describe, expect, it } from "vitest";
import { get, postForm, uniqueEmail } from "../support/http";
import { publicRoutes } from "../support/routes";

function metaContent(html: string, attr: "name" | "property", key: string) {
  const re = new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"`);
  return html.match(re)?.[1];
}

describe("SEO and sharing", () => {
  it.each(publicRoutes.filter((r) => !r.status && !r.path.startsWith("/oauth/")))(
    "$path has a title, description, canonical URL and Open Graph tags",
    async ({ path }) => {
      const html = await (await get(path)).text();
      expect(html).toMatch(/<title>[^<]{3,}<\/title>/);
      expect(metaContent(html, "name", "description")?.length).toBeGreaterThan(20);
      const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
      expect(canonical).toBe(`http://localhost:3000${path.split("?")[0]}`);
      expect(metaContent(html, "property", "og:title")).toBeTruthy();
      expect(metaContent(html, "property", "og:url")).toBe(canonical);
      expect(metaContent(html, "property", "og:image")).toMatch(/^http:\/\/localhost:3000\//);
      expect(metaContent(html, "name", "twitter:card")).toBe("summary_large_image");
    },
  );

  it("lists the public pages, the three articles and the 13 white-paper sections in /sitemap.xml", async () => {
    const res = await get("/sitemap.xml");
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain("http://localhost:3000/");
    for (const id of ["Aq7TrX8B", "tB6YwPoQ", "Vm9FaTcN"]) expect(locs).toContain(`http://localhost:3000/blogs/${id}`);
    expect(locs.filter((l) => l!.includes("/white-paper/"))).toHaveLength(13);
    expect(locs.some((l) => l!.includes("/profile"))).toBe(false);
  });

  it("serves robots.txt pointing at the sitemap and keeping member pages out", async () => {
    const text = await (await get("/robots.txt")).text();
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    expect(text).toContain("Disallow: /profile");
  });

  it("serves the default Open Graph image as a PNG", async () => {
    const res = await get("/images/og-default.png");
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  });
});

describe("blog", () => {
  it("shows the article with its read time and date, and counts each view", async () => {
    const count = async () =>
      ((await (await get("/api/page-views?path=/blogs/tB6YwPoQ")).json()) as { data: { views: number } }).data.views;
    const before = await count();
    const res = await get("/blogs/tB6YwPoQ");
    const html = await res.text();
    expect(html).toContain("5 mins read");
    expect(html).toContain("30 June 2025");
    await get("/blogs/tB6YwPoQ");
    await get("/blogs/tB6YwPoQ?from=x");
    expect(await count()).toBe(before + 3);
  });

  it("refuses to count pages that are not tracked", async () => {
    expect((await get("/api/page-views?path=/profile")).status).toBe(400);
  });

  it("lists the three articles newest first with their dates and images", async () => {
    const html = await (await get("/blogs")).text();
    const ids = [...html.matchAll(/href="\/blogs\/([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["Aq7TrX8B", "tB6YwPoQ", "Vm9FaTcN"]);
    expect(html).toContain("1 July 2025");
    expect(html).toContain('src="/images/blog/Aq7TrX8B.svg"');
  });
});

describe("contact form", () => {
  it("stores a message, sends it to the support address and thanks the sender", async () => {
    const email = uniqueEmail("contact");
    const res = await postForm("/contact", {
      name: "Grace",
      email,
      message: "Hello, I would like my data exported please.",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you!");
    const mail = await (await get("/dev/mail")).text();
    expect(mail).toContain(`From: Grace &lt;${email}&gt;`);
    expect(mail).toContain("to support@grader.example");
  });

  it("shows field errors and keeps what was typed", async () => {
    const res = await postForm("/contact", { name: "", email: "grace@example.com", message: "short" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Tell us your name.");
    expect(html).toContain("Write at least 10 characters.");
    expect(html).toContain('value="grace@example.com"');
    expect(html).toContain(">short</textarea>");
  });

  it("rejects a filled honeypot without storing anything", async () => {
    const email = uniqueEmail("bot");
    const res = await postForm("/contact", {
      name: "Bot",
      email,
      message: "Buy cheap followers now!!!",
      website: "spam.example",
    });
    expect(res.status).toBe(400);
    expect(await (await get("/dev/mail")).text()).not.toContain(email);
  });
});

import { describe, expect, it } from "vitest";
import { get } from "../support/http";

// The installable app: the manifest and every icon it names, the links a page gives browsers and
// iOS, the service worker at the site's root (so its scope is the whole site) and its offline page.

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("the installable app", () => {
  it("serves a manifest whose icons exist at their stated sizes, a maskable one among them", async () => {
    const res = await get("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ short_name: "Grader", display: "standalone", start_url: "/portal/dashboard" });
    expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);
    for (const icon of manifest.icons) {
      const file = await get(icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get("content-type"), icon.src).toContain(icon.type);
      if (icon.type !== "image/png") continue;
      const [w, h] = icon.sizes.split("x").map(Number);
      expect(pngSize(new Uint8Array(await file.arrayBuffer())), icon.src).toEqual({ width: w, height: h });
    }
  });

  it("links the manifest and the iOS icon from every page, with a theme colour", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
    expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
    expect(html).toMatch(/<meta name="theme-color"/);
    const icon = await get("/icons/apple-touch-icon.png");
    expect(pngSize(new Uint8Array(await icon.arrayBuffer()))).toEqual({ width: 180, height: 180 });
  });

  it("serves the service worker from the root with its push, click and offline handlers, and the offline page", async () => {
    const sw = await get("/sw.js");
    expect(sw.status).toBe(200);
    expect(sw.headers.get("content-type")).toMatch(/javascript/);
    const code = await sw.text();
    for (const handler of ["install", "fetch", "push", "notificationclick"])
      expect(code).toContain(`addEventListener("${handler}"`);
    const offline = await get("/offline.html");
    expect(offline.status).toBe(200);
    expect(await offline.text()).toContain("You are offline");
  });
});

describe("the build's files", () => {
  it("carry nosniff and their year-long cache, without a document's headers", async () => {
    const html = await (await get("/")).text();
    const src = /<script[^>]+src="(\/build\/[^"]+\.js)"/.exec(html)?.[1] ?? /"(\/build\/[^"]+\.js)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const res = await get(src!);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toContain("immutable");
    for (const name of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy"])
      expect(res.headers.get(name), name).toBeNull();
    // The page itself keeps them.
    expect((await get("/")).headers.get("content-security-policy")).toContain("script-src");
  });
});

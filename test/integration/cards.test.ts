import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

// Performance cards and sharing over HTTP: rendering, the content-addressed cache, the download
// proxy's refusals, the public share page and the verification page.

type ShareAnswer = {
  data?: {
    share_url: string;
    format: string;
    width: number;
    height: number;
    page_url: string;
    verification_code: string;
  };
  error?: { message: string };
};

async function api(path: string, cookie: string, body: unknown = {}) {
  const res = await fetch(baseUrl() + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as ShareAnswer & { data?: Record<string, unknown> },
  };
}

const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function userId(cookie: string): Promise<number> {
  return ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
}

async function gradedTrader() {
  const { cookie } = await signUp();
  const linked = await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() });
  expect(linked.status).toBeLessThan(300);
  // The import's automatic grade; asking for one afterwards finds it (2002, no try used).
  await waitForImports(cookie);
  const graded = await api("/api/finance/plaid/evaluation", cookie);
  expect(graded.body.data?.code).toBe(2002);
  return { cookie, id: await userId(cookie), code: graded.body.data?.verification_code as string };
}

/** Width and height from a PNG's IHDR chunk, after checking the 8-byte signature. */
function pngSize(bytes: Uint8Array) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect(Array.from(bytes.subarray(0, 8))).toEqual(signature);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(String.fromCharCode(...bytes.subarray(12, 16))).toBe("IHDR");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** share_url is absolute on PUBLIC_URL; the test server listens elsewhere, so fetch its path here. */
const local = (url: string) => new URL(url).pathname + new URL(url).search;

describe("performance cards", () => {
  let trader: { cookie: string; id: number; code: string };
  let linkUrl: string;

  beforeAll(async () => {
    trader = await gradedTrader();
  });

  it("renders the 1200×630 card as a PNG served with an immutable cache header", async () => {
    const res = await api(`/api/share/image/${trader.id}`, trader.cookie);
    expect(res.status).toBe(200);
    linkUrl = res.body.data!.share_url;
    expect(linkUrl).toMatch(/^https?:\/\/[^/]+\/cards\/[0-9a-f]{64}\.png$/);
    expect(res.body.data).toMatchObject({ format: "link", width: 1200, height: 630, verification_code: trader.code });
    const png = await get(local(linkUrl));
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    expect(bytes.length).toBeLessThan(150 * 1024);
  });

  it("serves a stored card with safe headers, a 304 for its ETag and 404 for unknown or malformed names", async () => {
    const path = local(linkUrl);
    const png = await get(path);
    expect(png.status).toBe(200);
    const etag = png.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(png.headers.get("content-length")).toBe(String((await png.arrayBuffer()).byteLength));
    expect(png.headers.get("x-content-type-options")).toBe("nosniff");
    expect(png.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(png.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const again = await get(path, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const head = await fetch(baseUrl() + path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(png.headers.get("content-length"));
    const unknown = await get(`/cards/${"0".repeat(64)}.png`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    for (const name of ["abc.png", `${"A".repeat(64)}.png`, `${"0".repeat(64)}.jpg`])
      expect((await get(`/cards/${name}`)).status, name).toBe(404);
  });

  it("renders the 1080×1350 story card with format=story", async () => {
    const res = await api(`/api/share/image/${trader.id}?format=story`, trader.cookie);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ format: "story", width: 1080, height: 1350 });
    expect(res.body.data!.share_url).not.toBe(linkUrl);
    const bytes = new Uint8Array(await (await get(local(res.body.data!.share_url))).arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1080, height: 1350 });
    const viaBody = await api(`/api/share/image/${trader.id}`, trader.cookie, { format: "story" });
    expect(viaBody.body.data!.share_url).toBe(res.body.data!.share_url);
  });

  it("never renders the same card twice: a second request is a cache hit on the same URL", async () => {
    const first = await api(`/api/share/image/${trader.id}`, trader.cookie);
    const second = await api(`/api/share/image/${trader.id}`, trader.cookie);
    expect(first.body.data!.share_url).toBe(linkUrl);
    expect(second.body.data!.share_url).toBe(linkUrl);
    expect(first.headers.get("x-card-cache")).toBe("hit");
    expect(second.headers.get("x-card-cache")).toBe("hit");
    expect(second.headers.get("x-card-renders")).toBe(first.headers.get("x-card-renders"));
  });

  it("gives a changed privacy choice and a new grade a new URL", async () => {
    const before = await api(`/api/share/image/${trader.id}`, trader.cookie);
    const info = (
      (await (await get("/api/user/info", { cookie: trader.cookie })).json()) as { data: { username: string | null } }
    ).data;
    const saved = await postForm(
      "/user/settings",
      { username: info.username ?? `card_${Date.now().toString(36)}`, show_amounts: "amounts" },
      { cookie: trader.cookie },
    );
    expect(saved.status).toBeLessThan(400);
    const amounts = await api(`/api/share/image/${trader.id}`, trader.cookie);
    expect(amounts.headers.get("x-card-cache")).toBe("miss");
    expect(amounts.body.data!.share_url).not.toBe(before.body.data!.share_url);
    // A second linked account is new data: a new evaluation, a new verification code, a new card.
    await api("/api/finance/plaid/exchange-public-token", trader.cookie, { public_token: demoToken() });
    await waitForImports(trader.cookie); // its import re-grades automatically
    const regraded = await api("/api/finance/plaid/evaluation", trader.cookie);
    expect(regraded.body.data?.code).toBe(2002);
    expect(regraded.body.data?.verification_code).not.toBe(trader.code);
    const after = await api(`/api/share/image/${trader.id}`, trader.cookie);
    expect(after.body.data!.verification_code).toBe(regraded.body.data?.verification_code);
    expect(after.body.data!.share_url).not.toBe(amounts.body.data!.share_url);
    // The old URLs stay valid (immutable).
    expect((await get(local(linkUrl))).status).toBe(200);
    trader.code = after.body.data!.verification_code;
    linkUrl = after.body.data!.share_url;
  });

  it("shares another graded trader's card, and answers 404 for ungraded and unknown users", async () => {
    const viewer = await signUp();
    const other = await api(`/api/share/image/${trader.id}`, viewer.cookie);
    expect(other.status).toBe(200);
    expect(other.body.data!.share_url).toBe(linkUrl);
    const own = await api(`/api/share/image/${await userId(viewer.cookie)}`, viewer.cookie);
    expect(own.status).toBe(404);
    expect(own.body.error?.message).toBe(
      "You don’t have a grade yet. Connect your investment account to get your grade, then share it!",
    );
    const ungraded = await api(`/api/share/image/${await userId(viewer.cookie)}`, trader.cookie);
    expect(ungraded.status).toBe(404);
    expect((await api("/api/share/image/999999999", viewer.cookie)).status).toBe(404);
    const anonymous = await fetch(`${baseUrl()}/api/share/image/${trader.id}`, { method: "POST" });
    expect(anonymous.status).toBe(401);
  });

  it("downloads a card through the proxy as an attachment named after the trader", async () => {
    const info = (
      (await (await get("/api/user/info", { cookie: trader.cookie })).json()) as {
        data: { username: string | null; first_name: string | null };
      }
    ).data;
    const res = await get(`/api/share/proxy?file_url=${encodeURIComponent(linkUrl)}`, { cookie: trader.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const expected = `${info.username || info.first_name || "grader-card"}.png`;
    expect(res.headers.get("content-disposition")).toContain(`attachment; filename="${expected}"`);
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it("refuses (400) every file_url that is not one of our own card URLs, and never fetches it", async () => {
    const ours = new URL(linkUrl);
    const hash = ours.pathname.slice("/cards/".length, -".png".length);
    const server = new URL(baseUrl());
    const refused = [
      "",
      "not a url",
      `https://evil.example/cards/${hash}.png`,
      `${ours.protocol}//${ours.host}.evil.example/cards/${hash}.png`,
      `${ours.protocol}//user:pw@${ours.host}/cards/${hash}.png`,
      `http://127.0.0.1:${server.port}/cards/${hash}.png`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://10.0.0.1/cards/${hash}.png`,
      `http://[::1]/cards/${hash}.png`,
      `file:///etc/passwd`,
      `${ours.origin}/cards/${hash}.png?redirect=https://evil.example/`,
      `${ours.origin}/api/share/proxy?file_url=${encodeURIComponent("https://evil.example/x.png")}`,
      `${ours.origin}/cards/${hash}.png#x`,
      `${ours.origin}/avatars/${trader.id}`,
      `${ours.origin}/cards/${hash.toUpperCase()}.png`,
      `${ours.origin}/cards/${hash}.png/../../etc/passwd`,
      `${ours.origin}/cards/abc.png`,
      `//evil.example/cards/${hash}.png`,
    ];
    for (const url of refused) {
      const res = await get(`/api/share/proxy?file_url=${encodeURIComponent(url)}`);
      expect(res.status, url).toBe(400);
    }
    expect((await get("/api/share/proxy")).status).toBe(400);
    expect(
      (await get(`/api/share/proxy?file_url=${encodeURIComponent(`${ours.origin}/cards/${"0".repeat(64)}.png`)}`))
        .status,
    ).toBe(404);
  });

  it("serves the public share page with Open Graph tags whose image is a real PNG", async () => {
    const res = await get(`/share/open_graph/${trader.id}?from=x`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const meta = (attr: string, key: string) =>
      new RegExp(`<meta[^>]*${attr}="${key.replace(/[:]/g, "\\:")}"[^>]*content="([^"]*)"`).exec(html)?.[1];
    const image = meta("property", "og:image");
    expect(image).toBe(linkUrl);
    expect(meta("property", "og:image:width")).toBe("1200");
    expect(meta("property", "og:image:height")).toBe("630");
    expect(meta("property", "og:title")).toMatch(/graded (Bronze|Silver|Gold|Master|Legend) on Grader/);
    expect(meta("property", "og:description")).toContain(trader.code);
    expect(meta("property", "og:url")).toMatch(new RegExp(`/share/open_graph/${trader.id}$`));
    expect(meta("name", "twitter:card")).toBe("summary_large_image");
    const png = await get(local(image!));
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(pngSize(new Uint8Array(await png.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
    for (const text of ["Grade summary", trader.code, "Get your grade", `/verify/${trader.code}`])
      expect(html).toContain(text);
    // Graded from the Plaid simulator (the test server runs with DEMO=1): said on the page and in the unfurl.
    expect(html).toContain("Demo data:");
    expect(meta("property", "og:description")).toMatch(/^Demo data\. /);
  });

  it("answers the share page with a 404 page for unknown and ungraded users", async () => {
    const unknown = await get("/share/open_graph/999999999");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Nothing to see here!");
    expect((await get("/share/open_graph/not-a-number")).status).toBe(404);
    const ungraded = await signUp();
    expect((await get(`/share/open_graph/${await userId(ungraded.cookie)}`)).status).toBe(404);
  });

  it("never reflects `from` unescaped", async () => {
    const payload = `"><script>alert(1)</script>`;
    const res = await get(`/share/open_graph/${trader.id}?from=${encodeURIComponent(payload)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain(`"><script>`);
  });

  it("shows which evaluation a verification code belongs to", async () => {
    const res = await get(`/verify/${trader.code}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(trader.code);
    expect(html).toMatch(/Bronze|Silver|Gold|Master|Legend/);
    expect(html).toContain("Engine version");
    expect(html).toContain("Demo data (simulated provider histories)");
    expect(html).toMatch(/Ledger digest[\s\S]*<code[^>]*>[0-9a-f]{16,}/);
    expect(html).toContain("current grade");
    expect(html).toContain(`href="/u/${trader.id}"`);
    // Everything the card draws is on the record, and the card itself.
    const card = await api(`/api/share/image/${trader.id}`, trader.cookie);
    for (const label of ["Time-weighted return", "Max drawdown", "Win rate", "Stars", "Score", "Graded on", "Period"])
      expect(html).toContain(label);
    expect(html).toContain(`src="${local(card.body.data!.share_url)}"`);
    for (const path of ["/verify/GR-ZZZZ-ZZZZ", "/verify/nonsense"]) {
      const missing = await get(path);
      expect(missing.status).toBe(404);
      const page = await missing.text();
      expect(page).toContain("No grade has this code");
      expect(page).toMatch(/<form[^>]*action="\/verify"/);
      expect(page).toMatch(/<input[^>]*name="code"/);
    }
  });

  it("answers /verify?code= with a 303 to the normalised code, and a 404 with the form for a malformed one", async () => {
    const form = await get("/verify");
    expect(form.status).toBe(200);
    expect(await form.text()).not.toContain("No grade has this code");
    const typed = ` ${trader.code.toLowerCase().replace(/-/g, " ")} `;
    const res = await get(`/verify?code=${encodeURIComponent(typed)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/verify/${trader.code}`);
    const bad = await get("/verify?code=hello");
    expect(bad.status).toBe(404);
    const page = await bad.text();
    expect(page).toContain("No grade has this code");
    expect(page).toMatch(/<input[^>]*name="code"[^>]*value="hello"|<input[^>]*value="hello"[^>]*name="code"/);
  });

  it("has a no-JavaScript share page with the image, network links and a download link", async () => {
    const res = await get("/share", { cookie: trader.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<img[^>]+src="\/cards\/[0-9a-f]{64}\.png"/);
    for (const host of ["twitter.com/intent/tweet", "facebook.com/sharer", "reddit.com/submit"])
      expect(html).toContain(host);
    expect(html).toContain(encodeURIComponent(`/share/open_graph/${trader.id}?from=twitter`));
    expect(html).toContain("/api/share/proxy?file_url=");
    expect(html).toContain("To share on Instagram, please download your performance card first");
    const ungraded = await signUp();
    const redirected = await get("/share", { cookie: ungraded.cookie });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toMatch(/^\/evaluate/);
  });
});

describe("a deleted account", () => {
  // A 2×3 PNG: drawn on the card as the avatar.
  const avatarPng = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEJMCJzAE0SA/3Z0O4QAAAAAElFTkSuQmCC",
    "base64",
  );

  it("takes its card, avatar, share page, badge and profile with it at once, from the process that served them", async () => {
    const trader = await gradedTrader();
    const form = new FormData();
    form.append("avatar", new Blob([new Uint8Array(avatarPng)], { type: "image/png" }), "me.png");
    const uploaded = await fetch(baseUrl() + "/user/settings", {
      method: "POST",
      body: form,
      headers: { cookie: trader.cookie, origin: baseUrl() },
      redirect: "manual",
    });
    expect(uploaded.status).toBe(302);
    const avatar = (
      (await (await get("/api/user/info", { cookie: trader.cookie })).json()) as { data: { avatar: string } }
    ).data.avatar;
    const urls = [
      (await api(`/api/share/image/${trader.id}`, trader.cookie)).body.data!.share_url,
      (await api(`/api/share/image/${trader.id}?format=story`, trader.cookie)).body.data!.share_url,
    ];
    const cards = urls.map(local);
    const viewer = await signUp();
    // Everything answers, and the cards are now in this process's memory.
    const etags: string[] = [];
    for (const card of cards) {
      const res = await get(card);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      etags.push(res.headers.get("etag")!);
    }
    expect((await get(avatar)).status).toBe(200);
    const share = await get(`/share/open_graph/${trader.id}`);
    expect(share.status).toBe(200);
    expect(await share.text()).toContain(cards[0]);
    expect((await get(`/u/${trader.id}/badge.svg`)).status).toBe(200);
    expect((await get(`/u/${trader.id}`, { cookie: viewer.cookie })).status).toBe(200);

    const gone = await postForm(
      "/user/settings/delete-account",
      { confirmation: "correct horse battery" },
      { cookie: trader.cookie },
    );
    expect(gone.headers.get("location")).toBe("/?account=deleted");

    for (const [i, card] of cards.entries()) {
      const res = await get(card);
      expect(res.status, card).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      // A browser that kept the card is not told its copy is still good.
      expect((await get(card, { headers: { "if-none-match": etags[i]! } })).status).toBe(404);
    }
    expect((await get(avatar)).status).toBe(404);
    expect((await get(`/share/open_graph/${trader.id}`)).status).toBe(404);
    expect((await get(`/u/${trader.id}/badge.svg`)).status).toBe(404);
    expect((await get(`/u/${trader.id}`, { cookie: viewer.cookie })).status).toBe(404);
    const proxied = await get(`/api/share/proxy?file_url=${encodeURIComponent(urls[0]!)}`, {
      cookie: viewer.cookie,
    });
    expect(proxied.status).toBe(404);
  });
});

describe("the card renderer (in process)", () => {
  it("draws long, non-Latin and fallback names, huge and negative figures at the exact size", async () => {
    const { renderCardPng, facesForText } = await import("../../app/card/render.server");
    const { drawableName } = await import("../../app/server/grades/cards.server");
    const { cardPercent, cardUsd } = await import("../../app/lib/metrics");
    // Cyrillic, Greek, Vietnamese, Chinese and Japanese have bundled glyphs; emoji, Korean and
    // right-to-left scripts fall back to the @username instead of drawing tofu.
    for (const name of [
      "Иван Петров",
      "Γιώργος Παπαδόπουλος",
      "Nguyễn Văn An",
      "王小明",
      "山田 太郎",
      "Zoë Ørsted-Łukasiewicz",
    ])
      expect(facesForText(name), name).not.toBeNull();
    for (const name of ["😀 Joe", "김민준", "محمد", "דוד"]) expect(facesForText(name), name).toBeNull();
    const owner = { username: "kim_trader", first_name: "김민준", last_name: null, name: null, show_amounts: false };
    expect(drawableName(owner)).toEqual({ name: "@kim_trader", initials: "K" });
    expect(drawableName({ ...owner, username: null })).toEqual({ name: "Grader trader", initials: "G" });
    expect(cardPercent(123456.78)).toBe("+12.3M%");
    expect(cardPercent(-0.4567)).toBe("\u221245.7%");
    expect(cardUsd(-98_765_432)).toBe("\u2212$98.7M");
    const data = {
      format: "link" as const,
      product: "Grader",
      name: "Maximiliana Alexandrovna Konstantinopoulou-Wetherby 王小明 Иван",
      username: "a_very_long_username_indeed_30",
      initials: "MA",
      avatar: null,
      tier: "Legend",
      tierColor: "#22d3ee",
      score: 99.9,
      stars: { overall: 5, profitability: 5, riskControl: 0, consistency: 5, discipline: 1, experience: 5 },
      figures: [
        { label: "Time-weighted return", value: cardPercent(98765.4321), tone: "up" as const },
        { label: "Max drawdown", value: cardPercent(-0.999), tone: "down" as const },
        { label: "Win rate", value: cardPercent(1, false), tone: "flat" as const },
        { label: "Total P&L", value: cardUsd(-1_234_567_890_123), tone: "down" as const },
      ],
      // The longest the engine says: a blended benchmark with a per-year alpha.
      verdict:
        "In line with a blend of the S&P 500 (60 %) and Bitcoin (40 %): no evidence of skill yet (alpha \u2212123.4%/yr).",
      date: "Nov 22, 2026",
      code: "GR-ABCD-EFGH",
      verifyHost: "grader.example/verify",
      showAmounts: true,
      demo: true,
      selfReported: true,
    };
    for (const format of ["link", "story"] as const) {
      const png = await renderCardPng({ ...data, format });
      expect(pngSize(new Uint8Array(png))).toEqual(
        format === "link" ? { width: 1200, height: 630 } : { width: 1080, height: 1350 },
      );
      expect(png.length).toBeLessThan(150 * 1024);
    }
  });

  it("counts share-page views with their source", async () => {
    const trader = await gradedTrader();
    const path = `/share/open_graph/${trader.id}`;
    const views = async () =>
      ((await (await get(`/api/page-views?path=${encodeURIComponent(path)}`)).json()) as { data: { views: number } })
        .data.views;
    const before = await views();
    expect((await get(`${path}?from=twitter`)).status).toBe(200);
    expect((await get(`${path}?from=reddit`)).status).toBe(200);
    expect(await views()).toBe(before + 2);
  });
});

// Card benchmark: Satori → resvg → PNG render times (cold: the first render in a fresh process,
// fonts parsed on first use; warm: later renders with different data each time), renders per
// second in one process (4 renders in flight, and one at a time), and the latency of serving an
// already stored card over HTTP.
// Run alone with `npx tsx bench/cards.ts` (needs `remix build` for the HTTP part).
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { CardData } from "../app/card/layout";

const root = path.resolve(import.meta.dirname, "..");

function sample(i: number, format: CardData["format"] = "link"): CardData {
  const names = [
    "Alexandra Konstantinopoulou",
    "Sam Lee",
    "王小明",
    "Иван Петров",
    "María José Fernández-Castillo",
    "Kai",
  ];
  return {
    format,
    product: "Grader",
    name: `${names[i % names.length]}${i > 5 ? ` ${i}` : ""}`,
    username: `trader_${i}`,
    initials: "AK",
    avatar: null,
    tier: ["Bronze", "Silver", "Gold", "Master", "Legend"][i % 5]!,
    tierColor: ["#cd7f32", "#c0c7d1", "#f5c542", "#8b5cf6", "#22d3ee"][i % 5]!,
    score: 40 + (i % 60),
    stars: {
      overall: 1 + (i % 5),
      profitability: 1 + ((i + 1) % 5),
      riskControl: 1 + ((i + 2) % 5),
      consistency: 1 + ((i + 3) % 5),
      discipline: 1 + ((i + 4) % 5),
      experience: 3,
    },
    verdict: i % 2 === 0 ? "+6.2%/yr over the S&P 500 at similar risk (alpha)." : null,
    figures: [
      { label: "Time-weighted return", value: `+${(i * 1.7).toFixed(1)}%`, tone: "up" },
      { label: "Max drawdown", value: `\u2212${(5 + (i % 20)).toFixed(1)}%`, tone: "down" },
      { label: "Win rate", value: `${(40 + (i % 30)).toFixed(1)}%`, tone: "flat" },
      { label: "Money-weighted return", value: `+${(i * 0.9).toFixed(1)}%`, tone: "up" },
    ],
    date: "Nov 22, 2026",
    code: `GR-${String(1000 + i).slice(-4)}-ABCD`,
    verifyHost: "grader.example/verify",
    showAmounts: false,
    demo: false,
    selfReported: false,
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};

/** In a fresh process: importing the renderer (fonts read) and the first render (fonts parsed). */
async function coldOnce(): Promise<{ importMs: number; firstRenderMs: number; bytes: number }> {
  const started = performance.now();
  const { renderCardPng } = await import("../app/card/render.server");
  const imported = performance.now();
  const png = await renderCardPng(sample(0));
  return { importMs: imported - started, firstRenderMs: performance.now() - imported, bytes: png.length };
}

/** Rendering and encoding a blank 1200×630 PNG with resvg's asPng: this machine's floor, to read the other figures against. */
async function blankPngMs(): Promise<number> {
  const { Resvg } = await import("@resvg/resvg-js");
  const times: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t = performance.now();
    new Resvg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="1200" height="630" fill="#0c1222"/></svg>',
    )
      .render()
      .asPng();
    if (i >= 5) times.push(performance.now() - t);
  }
  return pct(times, 50);
}

/** The same blank card through this renderer's own path (resvg's renderAsync + encodePng). */
async function blankPipelineMs(): Promise<number> {
  const { renderAsync } = await import("@resvg/resvg-js");
  const { encodePng } = await import("../app/card/png.server");
  const times: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t = performance.now();
    const image = await renderAsync(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="1200" height="630" fill="#0c1222"/></svg>',
    );
    await encodePng(image.pixels, image.width, image.height);
    if (i >= 5) times.push(performance.now() - t);
  }
  return pct(times, 50);
}

async function renderTimes() {
  const { renderCardPng } = await import("../app/card/render.server");
  for (let i = 0; i < 10; i++) await renderCardPng(sample(i));
  const warm: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 80; i++) {
    const t = performance.now();
    const png = await renderCardPng(sample(i % 6 === 2 ? 6 : i)); // mostly Latin names, a CJK one warm
    warm.push(performance.now() - t);
    bytes = Math.max(bytes, png.length);
  }
  const story: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await renderCardPng(sample(i, "story"));
    story.push(performance.now() - t);
  }
  // Throughput for ~3 s each: one render at a time, then 4 in flight (rasterising and compressing
  // run in libuv's thread pool, so concurrent renders use both cores as a busy server would).
  const throughput = async (inFlight: number) => {
    let count = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() - start < 3000) await renderCardPng(sample(count++));
      }),
    );
    return Math.round((count / ((performance.now() - start) / 1000)) * 10) / 10;
  };
  const rendersPerSecondSerial = await throughput(1);
  const rendersPerSecond = await throughput(4);
  return { warm, story, bytes, rendersPerSecond, rendersPerSecondSerial };
}

async function cachedServing() {
  const { startServer } = await import("../test/support/server");
  const server = await startServer({ LOG_REQUESTS: "0" });
  try {
    const email = `bench-${Date.now()}@example.com`;
    const signup = await fetch(`${server.url}/signup`, {
      method: "POST",
      body: new URLSearchParams({ email, password: "correct horse battery" }),
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    const cookie = signup.headers
      .getSetCookie()
      .find((c) => c.startsWith("grader_session="))!
      .split(";")[0]!;
    const post = async (p: string, body: unknown = {}) =>
      (await (
        await fetch(server.url + p, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify(body),
        })
      ).json()) as { data: Record<string, unknown> };
    await post("/api/finance/plaid/exchange-public-token", {
      public_token: `public-sandbox-user_good_bench${Date.now().toString(36)}`,
    });
    // The import runs as jobs and grades automatically: wait for it.
    for (;;) {
      const imports = (await (await fetch(`${server.url}/api/portal/imports`, { headers: { cookie } })).json()) as {
        data: { state: string }[];
      };
      if (imports.data.every((i) => i.state === "done" || i.state === "failed")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await post("/api/finance/plaid/evaluation");
    const me = (await (await fetch(`${server.url}/api/user/info`, { headers: { cookie } })).json()) as {
      data: { id: number };
    };
    const first = performance.now();
    const shared = await post(`/api/share/image/${me.data.id}`);
    const firstShareMs = performance.now() - first;
    const again = performance.now();
    await post(`/api/share/image/${me.data.id}`);
    const cachedShareMs = performance.now() - again;
    const cardPath = new URL(shared.data.share_url as string).pathname;
    for (let i = 0; i < 50; i++) await (await fetch(server.url + cardPath)).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < 400; i++) {
      const t = performance.now();
      const res = await fetch(server.url + cardPath);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    return {
      cachedCardP50Ms: pct(times, 50),
      cachedCardP95Ms: pct(times, 95),
      shareCallFirstMs: Math.round(firstShareMs),
      shareCallCachedMs: Math.round(cachedShareMs * 10) / 10,
    };
  } finally {
    await server.stop();
  }
}

export async function benchCards() {
  const cold: number[] = [];
  const coldImport: number[] = [];
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, ["--import", "tsx", path.join(root, "bench/cards.ts"), "--cold-once"], {
      cwd: root,
      encoding: "utf8",
    });
    const run = JSON.parse(out.trim().split("\n").pop()!) as { importMs: number; firstRenderMs: number };
    cold.push(run.firstRenderMs);
    coldImport.push(run.importMs);
  }
  const { warm, story, bytes, rendersPerSecond, rendersPerSecondSerial } = await renderTimes();
  const blank = await blankPngMs();
  const blankOwn = await blankPipelineMs();
  const http = await cachedServing();
  return {
    format: "1200×630 unless noted",
    loadAvg1m: Math.round(os.loadavg()[0]! * 10) / 10,
    blankPngMs: blank,
    blankOwnPipelineMs: blankOwn,
    warmP50OverBlank: Math.round((pct(warm, 50) / blank) * 100) / 100,
    coldImportP50Ms: pct(coldImport, 50),
    coldRenderP50Ms: pct(cold, 50),
    coldRenderP95Ms: pct(cold, 95),
    warmRenderP50Ms: pct(warm, 50),
    warmRenderP95Ms: pct(warm, 95),
    storyWarmRenderP50Ms: pct(story, 50),
    rendersPerSecondPerProcess: rendersPerSecond,
    rendersPerSecondOneAtATime: rendersPerSecondSerial,
    pngBytesMax: bytes,
    ...http,
    targets: { warmP50Ms: 40, warmP95Ms: 60, rendersPerSecond: 35, cachedP50Ms: 2, pngBytes: 150 * 1024 },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--cold-once")) {
    console.log(JSON.stringify(await coldOnce()));
  } else {
    console.log(JSON.stringify(await benchCards(), null, 2));
  }
  process.exit(0);
}

import { performance } from "node:perf_hooks";
import { get, postForm, signUp, type ImportRow } from "../test/support/http";
import { ownDatabase, startServer } from "../test/support/server";

// Link → first grade as a demo user meets it: through the demo Link page, with Plaid's
// asynchronous history (PRODUCT_NOT_READY, the first 30 days, HISTORICAL_UPDATE, the whole
// history), on the built server with every job setting at its default; simulated delays ×1 (what
// a demo shows) and ×0 (our own cost). PGlite, and PostgreSQL when DATABASE_URL is set.

async function linkToGrade(base: string, n: number) {
  const { cookie } = await signUp({ base });
  const t0 = performance.now();
  const tokenRes = await fetch(base + "/api/finance/plaid/link-token", {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: base },
    body: "{}",
  });
  const linkToken = ((await tokenRes.json()) as { data: { link_token: string } }).data.link_token;
  const res = await postForm(
    "/demo/plaid-link",
    {
      link_token: linkToken,
      account: "",
      username: `user_good_bl${n}${Date.now().toString(36)}`,
      password: "pass_good",
      intent: "submit",
    },
    { cookie, base },
  );
  if (res.status !== 302) throw new Error(`link answered ${res.status}`);
  const linkMs = performance.now() - t0;
  let firstDoneMs: number | null = null;
  for (;;) {
    const rows = (
      (await (await get("/api/portal/imports", { cookie, base })).json()) as {
        data: (ImportRow & { reason: string })[];
      }
    ).data;
    const link = rows.find((r) => r.reason === "link");
    if (firstDoneMs === null && link?.state === "done") firstDoneMs = performance.now() - t0;
    const grades = (
      (await (await get("/api/portal/notifications", { cookie, base })).json()) as { data: { kind: string }[] }
    ).data;
    if (grades.some((g) => g.kind === "grade_done") && rows.every((r) => r.state === "done" || r.state === "failed"))
      return { linkMs, thirtyDaysInMs: firstDoneMs, firstGradeMs: performance.now() - t0, imports: rows.length };
    if (performance.now() - t0 > 120_000) throw new Error(`no grade after 2 min: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function benchLinkAsync(runs = 3) {
  const out: Record<string, unknown>[] = [];
  const databases: [string, () => Promise<Record<string, string>>][] = [
    ["PGlite", async () => ({ DATABASE_URL: "", DATA_DIR: "memory://" })],
    ...(process.env.DATABASE_URL ? [["PostgreSQL", ownDatabase] as [string, typeof ownDatabase]] : []),
  ];
  for (const [db, database] of databases)
    for (const factor of ["1", "0"]) {
      // A deployment's defaults (env.server.ts), not the test suite's quick settings.
      const server = await startServer({
        ...(await database()),
        SIM_DELAY_FACTOR: factor,
        JOB_POLL_SECONDS: "0.5",
        JOB_RETRY_DELAY_SECONDS: "2",
        JOB_RETRY_LIMIT: "6",
      });
      try {
        const samples: Awaited<ReturnType<typeof linkToGrade>>[] = [];
        for (let i = 0; i < runs; i++) samples.push(await linkToGrade(server.url, i));
        const ms = (k: "linkMs" | "thirtyDaysInMs" | "firstGradeMs") =>
          samples.map((s) => Math.round(s[k] ?? NaN)).join(" / ");
        out.push({
          db,
          delay: `×${factor}`,
          linkAnswersMs: ms("linkMs"),
          thirtyDaysImportedMs: ms("thirtyDaysInMs"),
          firstGradeMs: ms("firstGradeMs"),
          imports: samples.map((s) => s.imports).join(" / "),
        });
      } finally {
        await server.stop();
      }
    }
  return out;
}

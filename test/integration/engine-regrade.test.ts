import { sql } from "kysely";
import { expect, it } from "vitest";
import { ENGINE_CHANGELOG, ENGINE_VERSION } from "../../app/grading/version";
import { formatScore } from "../../app/lib/format-number";
import { invariantProblems, openStorage } from "../fault/invariants";
import { logged, scenario, start, waitFor } from "../fault/servers";
import { get, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import type { RunningServer } from "../support/server";

// Issue 29, point 7: after a deploy with a new ENGINE_VERSION, every current grade made under an
// older one is re-made in the background from the history already stored, and each trader is told.
// Rows an older engine wrote are rows whose engine_version is older: the test writes that value
// into the current grades of traders graded here, then starts the server again, as a deploy would.
// On storage of its own (a PGlite folder, or a database beside DATABASE_URL's), so it can restart.

const RUN = Date.now().toString(36);
const OLDER = "1.0.0";
const major = ENGINE_VERSION.split(".")[0];

/** Text as React writes it into HTML. */
function escaped(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");
}

function jobsDone(server: RunningServer): number {
  return logged(server, "job done").filter((e) => e.job === "engine-regrade").length;
}

type Note = { kind: string; text: string; url: string };
async function notes(base: string, cookie: string): Promise<Note[]> {
  const res = await get("/api/portal/notifications?page_size=50", { base, cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Note[] }).data;
}

it("re-makes each older grade once under ENGINE_VERSION, logged, free, and tells the trader why", async () => {
  // Batches of two: four traders take two jobs and a last, empty one, each after the pause.
  const env = await scenario({ ENGINE_REGRADE_BATCH: "2", ENGINE_REGRADE_PAUSE_SECONDS: "1" });
  const first = await start(env);
  const all: { email: string; cookie: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const trader = await signUp({ base: first.url });
    await exchange(first.url, trader.cookie, `user_good_${RUN}${i}`);
    all.push(trader);
  }
  // The last one's stored history will be broken: their grade fails, the others' do not.
  const traders = all.slice(0, 3);
  const broken = all[3]!;
  for (const t of all) {
    const imports = await waitForImports(t.cookie, { base: first.url, timeoutMs: 90_000 });
    expect(imports.map((i) => i.state)).toEqual(["done"]);
  }
  await first.stop();

  // The deploy: their current grades now read as an older engine's. The first trader's also had
  // another tier then, so the new grade changes it, and the second trader follows them.
  const storage = await openStorage(env);
  const before = await storage.db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.id as user_id",
      "users.email",
      "users.tries_used",
      "evaluations.id",
      "evaluations.tier",
      "evaluations.score",
      "evaluations.verification_code",
      (eb) =>
        eb
          .selectFrom("evaluation_days")
          .select(sql<string>`coalesce(sum(count), 0) || '/' || coalesce(sum(automatic), 0)`.as("d"))
          .whereRef("evaluation_days.user_id", "=", "users.id")
          .as("days"),
    ])
    .where(
      "users.email",
      "in",
      traders.map((t) => t.email),
    )
    .orderBy("users.id")
    .execute();
  expect(before).toHaveLength(3);
  const earlierTier = before[0]!.tier === "Legend" ? "Bronze" : "Legend";
  await storage.db
    .updateTable("evaluations")
    .set({ engine_version: OLDER })
    .where(
      "id",
      "in",
      before.map((b) => b.id),
    )
    .execute();
  await storage.db.updateTable("evaluations").set({ tier: earlierTier }).where("id", "=", before[0]!.id).execute();
  const brokenRow = await storage.db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .innerJoin("linked_accounts", "linked_accounts.user_id", "users.id")
    .select(["users.id as user_id", "evaluations.id", "evaluations.verification_code", "linked_accounts.id as account"])
    .where("users.email", "=", broken.email)
    .executeTakeFirstOrThrow();
  await storage.db.updateTable("evaluations").set({ engine_version: OLDER }).where("id", "=", brokenRow.id).execute();
  // A cash flow at no time anyone can read: the ledger cannot be built.
  await storage.db
    .insertInto("cash_flows")
    .values({ linked_account_id: brokenRow.account, external_id: "broken", time: "-infinity", amount: 100 })
    .execute();
  await storage.db
    .insertInto("follows")
    .values({ follower_id: before[1]!.user_id, followee_id: before[0]!.user_id })
    .execute();
  await storage.close();

  const second = await start(env);
  await waitFor("three batches of the re-grade", async () => (jobsDone(second) >= 3 ? true : undefined), 90_000);
  // The broken history was logged and counted, and the batch went on.
  expect(logged(second, "engine re-grade failed").map((e) => e.userId)).toEqual([brokenRow.user_id]);
  expect(logged(second, "engine re-grade batch").map((e) => [e.remade, e.failed])).toEqual([
    [2, undefined],
    [1, 1],
  ]);
  expect((await notes(second.url, broken.cookie)).filter((n) => n.kind === "grade_recomputed")).toEqual([]);
  const byEmail = new Map(before.map((b) => [b.email, b]));
  const afterNotes: Note[][] = [];
  for (const t of traders) {
    const mine = (await notes(second.url, t.cookie)).filter((n) => n.kind === "grade_recomputed");
    expect(mine).toHaveLength(1);
    afterNotes.push(mine);
  }
  const followerNotes = (await notes(second.url, traders[1]!.cookie)).filter((n) => n.kind === "grade_change");
  expect(followerNotes).toHaveLength(1);
  expect(followerNotes[0]!.text).toMatch(new RegExp(`grade changed from ${earlierTier} to `));

  // The page the notification leads to: the version's changelog, without JavaScript, its own title.
  const url = afterNotes[0]![0]!.url;
  expect(url).toBe(`/glossary#engine-v${ENGINE_VERSION}`);
  const page = await get(url.split("#")[0]!, { base: second.url });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("<title>Glossary · Grader</title>");
  expect(html).toContain(`id="engine-v${ENGINE_VERSION}"`);
  expect(html).toContain(`Engine v${major} (${ENGINE_VERSION})`);
  for (const line of ENGINE_CHANGELOG[ENGINE_VERSION]!) expect(html).toContain(escaped(line));
  await second.stop();

  const check = await openStorage(env);
  let codes: string[] = [];
  try {
    const now = await check.db
      .selectFrom("users")
      .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
      .select([
        "users.email",
        "users.tries_used",
        "evaluations.engine_version",
        "evaluations.remade_from",
        "evaluations.tier",
        "evaluations.score",
        "evaluations.verification_code",
        (eb) =>
          eb
            .selectFrom("evaluation_days")
            .select(sql<string>`coalesce(sum(count), 0) || '/' || coalesce(sum(automatic), 0)`.as("d"))
            .whereRef("evaluation_days.user_id", "=", "users.id")
            .as("days"),
        (eb) =>
          eb
            .selectFrom("grade_log")
            .select(sql<number>`count(*)::int`.as("n"))
            .whereRef("grade_log.code", "=", "evaluations.verification_code")
            .as("logged"),
      ])
      .where(
        "users.email",
        "in",
        traders.map((t) => t.email),
      )
      .execute();
    expect(now).toHaveLength(3);
    for (const [i, t] of traders.entries()) {
      const old = byEmail.get(t.email)!;
      const current = now.find((n) => n.email === t.email)!;
      // A new current grade under this engine, naming the one it re-made, in the public log; the
      // old one kept; no try and no automatic grade of the day used.
      expect(current).toMatchObject({ engine_version: ENGINE_VERSION, remade_from: old.id, logged: 1 });
      expect(current.tries_used).toBe(old.tries_used);
      expect(current.days).toBe(old.days);
      const kept = await check.db
        .selectFrom("evaluations")
        .select(["engine_version", "verification_code"])
        .where("id", "=", old.id)
        .executeTakeFirstOrThrow();
      expect(kept).toEqual({ engine_version: OLDER, verification_code: old.verification_code });
      // The words: the tiers, or the scores when the tier held.
      const from = i === 0 ? earlierTier : old.tier;
      const change =
        from === current.tier
          ? `still ${current.tier} (score ${formatScore(old.score)} → ${formatScore(current.score)})`
          : `${from} → ${current.tier}`;
      expect(afterNotes[i]![0]!.text).toBe(`Your grade was recomputed under engine v${major}: ${change}. Why?`);
    }
    // The broken trader keeps the grade they had.
    const kept = await check.db
      .selectFrom("users")
      .select("current_evaluation_id")
      .where("id", "=", brokenRow.user_id)
      .executeTakeFirstOrThrow();
    expect(kept.current_evaluation_id).toBe(brokenRow.id);
    codes = [...before.map((b) => b.verification_code), brokenRow.verification_code];
  } finally {
    await check.close();
  }
  // The log's chain verifies and every grade is paid once; the only grades that differ from their
  // signed records are the four this test rewrote.
  const problems = await invariantProblems(env);
  expect(problems, problems.join("\n")).toHaveLength(codes.length);
  for (const c of codes)
    expect(problems.filter((p) => p.startsWith(`grade log: grade ${c} differs from its signed record`))).toHaveLength(
      1,
    );

  // A second start re-makes no one again: it only tries the broken history once more.
  const third = await start(env);
  const [checked] = await waitFor("the start-up check", async () => {
    const lines = logged(third, "engine re-grade checked");
    return lines.length ? lines : undefined;
  });
  expect(checked).toMatchObject({ version: ENGINE_VERSION, queued: true });
  await waitFor("the re-grade's run", async () => (jobsDone(third) >= 1 ? true : undefined), 60_000);
  expect(logged(third, "engine re-grade batch").map((e) => [e.remade, e.failed])).toEqual([[undefined, 1]]);
  for (const [i, t] of traders.entries())
    expect((await notes(third.url, t.cookie)).filter((n) => n.kind === "grade_recomputed")).toEqual(afterNotes[i]);
  await third.stop();
}, 480_000);

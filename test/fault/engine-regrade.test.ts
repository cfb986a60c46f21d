import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINE_VERSION } from "../../app/grading/version";
import { get, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import { invariantProblems, openStorage } from "./invariants";
import { logged, scenario, start, waitFor } from "./servers";

// Two replicas start at once after a deploy with a new ENGINE_VERSION: both ask for the re-grade
// of the grades an older engine made, and each trader's grade is re-made once (the queue is
// stately, and a grade is swapped only if still the one read). Several processes on one database
// need PostgreSQL: PGlite belongs to one process.

const RUN = Date.now().toString(36);

describe.skipIf(!process.env.DATABASE_URL)("two replicas starting after an engine version bump", () => {
  it("re-make each older grade once between them", { timeout: 400_000 }, async () => {
    const env = await scenario({ ENGINE_REGRADE_BATCH: "2", ENGINE_REGRADE_PAUSE_SECONDS: "1" });
    const first = await start(env);
    const traders: { email: string; cookie: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const trader = await signUp({ base: first.url });
      await exchange(first.url, trader.cookie, `user_good_${RUN}${i}`);
      traders.push(trader);
    }
    for (const t of traders) await waitForImports(t.cookie, { base: first.url, timeoutMs: 90_000 });
    await first.stop();

    const storage = await openStorage(env);
    const before = await storage.db
      .selectFrom("users")
      .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
      .select(["users.id as user_id", "evaluations.id", "evaluations.verification_code"])
      .where(
        "users.email",
        "in",
        traders.map((t) => t.email),
      )
      .execute();
    expect(before).toHaveLength(4);
    await storage.db
      .updateTable("evaluations")
      .set({ engine_version: "1.0.0" })
      .where(
        "id",
        "in",
        before.map((b) => b.id),
      )
      .execute();
    await storage.close();

    const [a, b] = await Promise.all([start(env), start(env)]);
    const remade = () =>
      [...logged(a, "engine re-grade batch"), ...logged(b, "engine re-grade batch")].reduce(
        (n, e) => n + Number(e.remade ?? 0),
        0,
      );
    await waitFor("four grades re-made", async () => (remade() >= 4 ? true : undefined), 120_000);
    // The chain's last, empty batch: nothing is left for anyone.
    await waitFor(
      "the re-grade's end",
      async () =>
        [...logged(a, "job done"), ...logged(b, "job done")].filter((e) => e.job === "engine-regrade").length >= 3
          ? true
          : undefined,
      60_000,
    );
    expect(remade()).toBe(4);
    for (const t of traders) {
      const res = await get("/api/portal/notifications", { base: a.url, cookie: t.cookie });
      const kinds = ((await res.json()) as { data: { kind: string }[] }).data.map((n) => n.kind);
      expect(kinds.filter((k) => k === "grade_recomputed")).toHaveLength(1);
    }
    await Promise.all([a.stop(), b.stop()]);

    const check = await openStorage(env);
    try {
      const rows = await check.db
        .selectFrom("evaluations")
        .select(["user_id", sql<string>`count(*)`.as("n"), sql<string>`count(remade_from)`.as("remade")])
        .where(
          "user_id",
          "in",
          before.map((x) => x.user_id),
        )
        .groupBy("user_id")
        .execute();
      expect(rows.map((r) => [Number(r.n), Number(r.remade)])).toEqual(before.map(() => [2, 1]));
      const current = await check.db
        .selectFrom("users")
        .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
        .select("evaluations.engine_version")
        .where(
          "users.id",
          "in",
          before.map((x) => x.user_id),
        )
        .execute();
      expect(current.map((c) => c.engine_version)).toEqual(before.map(() => ENGINE_VERSION));
    } finally {
      await check.close();
    }
    // Only the four grades this test rewrote differ from their signed records.
    const problems = await invariantProblems(env);
    expect(problems, problems.join("\n")).toHaveLength(4);
    for (const x of before)
      expect(
        problems.filter((p) => p.startsWith(`grade log: grade ${x.verification_code} differs from its signed record`)),
      ).toHaveLength(1);
  });
});

import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import { invariantProblems, openStorage } from "./invariants";
import { scenario, start } from "./servers";

// The check every fault test ends with must be able to fail: on a graded trader's database it
// finds nothing, and then each kind of damage done by hand is named.

describe("the invariant check", () => {
  it("passes on a sound database and names a doubled trade, a lost write, a try or pass counted twice, a broken chain and stuck work", async () => {
    const env = await scenario({ SIM_DELAY_FACTOR: "0" });
    const server = await start(env);
    const { cookie, email } = await signUp({ base: server.url });
    await exchange(server.url, cookie, `user_good_${Date.now().toString(36)}v`);
    await waitForImports(cookie, { base: server.url, timeoutMs: 60_000 });
    expect(await server.stop()).toBe(0);
    expect(await invariantProblems(env, { users: [email] })).toEqual([]);

    const { db, close } = await openStorage(env);
    try {
      const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      // A trade stored twice (the constraint that forbids it dropped first).
      await sql`alter table trades drop constraint trades_external`.execute(db);
      await sql`insert into trades (linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee)
        select linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee from trades limit 1`.execute(
        db,
      );
      // A try used with no evaluation asked for, extra tries with no pass, a lease never released.
      await db
        .updateTable("users")
        .set({ tries_used: 1, extra_tries: 10, evaluating_since: new Date() })
        .where("id", "=", user.id)
        .execute();
      // A grade edited after it was signed.
      await db.updateTable("evaluations").set({ tier: "Legend", score: 100 }).where("user_id", "=", user.id).execute();
      // An import left running.
      await db.updateTable("imports").set({ state: "fetching" }).where("user_id", "=", user.id).execute();
    } finally {
      await close();
    }
    const problems = await invariantProblems(env, { users: [email, "never-acknowledged@example.com"] });
    const expected = [
      /^trade .* stored 2 times$/,
      /^acknowledged sign-up never-acknowledged@example.com is missing$/,
      /extra tries but passes granted 0$/,
      /1 tries used for 0 evaluations asked for$/,
      /an evaluation lease is still held$/,
      /^grade log: grade GR-.* differs from its signed record/,
      /^import \d+ is still fetching$/,
    ];
    for (const pattern of expected)
      expect(
        problems.some((p) => pattern.test(p)),
        `${pattern} in ${problems}`,
      ).toBe(true);
  });
});

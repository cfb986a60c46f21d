import { describe, expect, it } from "vitest";
import { get, signUp, waitForImports, type ImportRow } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { exchange, importsOf, midImport, tradesOf } from "../support/plaid-link";
import { deliver, fixtureEvent, newCheckoutSession, sign } from "../support/stripe";
import { invariantProblems } from "./invariants";
import { kill9, scenario, start, waitFor } from "./servers";

// kill -9 in the middle of work, then a new server on the same storage (the PGlite folder as the
// crash left it, or the same PostgreSQL database): the work finishes once, as if nothing happened,
// and the invariants hold (test/fault/invariants.ts).

const RUN = Date.now().toString(36);

// An import over many short jobs (small pages, a slowed simulator). A dead worker's job is taken
// back after 3 s; a re-grade that meets the dead process's evaluation lease (15 s) is retried with
// backoff (2, 4, 8, 16 s) until the lease has expired.
const SLOW_IMPORT = {
  SIM_DELAY_FACTOR: "2",
  SIM_PLAID_PAGE_SIZE: "40",
  JOB_EXPIRE_SECONDS: "3",
  JOB_RETRY_LIMIT: "6",
  JOB_RETRY_DELAY_SECONDS: "2",
};

async function gradeLog(base: string) {
  return ((await (await get("/api/grades/log?after=0", { base })).json()) as { data: { record: { code: string } }[] })
    .data;
}

async function triesLeft(base: string, cookie: string): Promise<number> {
  const html = await (await get("/pricing", { base, cookie })).text();
  const m = /data-testid="tries-count">(\d+)</.exec(html);
  if (!m) throw new Error("no tries count on /pricing");
  return Number(m[1]);
}

async function evaluation(base: string, cookie: string) {
  const res = await fetch(base + "/api/finance/plaid/evaluation", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: "{}",
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { code: number; verification_code?: string } }).data;
}

describe("kill -9 during an import and during its automatic grade", () => {
  it("the next servers finish both: every trade once, one grade, no try used, invariants hold", async () => {
    const env = await scenario(SLOW_IMPORT);
    const first = await start(env);
    const { cookie, email } = await signUp({ base: first.url });
    const username = `user_good_${RUN}i`;
    const linked = await exchange(first.url, cookie, username);
    const before = await midImport(first.url, cookie);
    await kill9(first);

    // The import goes on from the page it was at, and reaches its automatic grade: killed there too.
    const second = await start(env);
    await waitFor(
      "the import's automatic grade",
      async () => ((await importsOf(second.url, cookie))[0]?.state === "grading" ? true : undefined),
      60_000,
    );
    await kill9(second);

    const third = await start(env);
    const [done] = await waitForImports(cookie, { base: third.url, timeoutMs: 90_000 });
    const expected = expectedDemoLedger(username);
    // Done with no message: the grade was made (a re-grade that gave up would say so here).
    expect(done).toMatchObject({ id: linked.import_id, state: "done", error: null, total: expected.transactions });
    expect(done!.fetched).toBeGreaterThan(before.fetched);
    expect(await tradesOf(third.url, cookie)).toBe(expected.trades);
    expect(await gradeLog(third.url)).toHaveLength(1);
    expect(await triesLeft(third.url, cookie)).toBe(3);
    expect(await third.stop()).toBe(0);
    expect(await invariantProblems(env, { users: [email] })).toEqual([]);
  });
});

describe("kill -9 during an evaluation the trader asked for", () => {
  it("its job completes after the restart, once: one grade in the log, one try used", async () => {
    // No automatic grade after the link: the trader's own evaluation is the first grade, and uses a try.
    // It waits for its re-import as long as the setting allows.
    const env = await scenario({ ...SLOW_IMPORT, AUTO_GRADES_PER_DAY: "0", EVALUATION_IMPORT_WAIT_MS: "60000" });
    const first = await start(env);
    const { cookie, email } = await signUp({ base: first.url });
    await exchange(first.url, cookie, `user_good_${RUN}e`);
    await waitForImports(cookie, { base: first.url, timeoutMs: 90_000 });
    expect(await triesLeft(first.url, cookie)).toBe(3);

    // The evaluation holds its lease and waits for its re-import: killed there, never answered.
    const asked = evaluation(first.url, cookie).then(
      () => "answered",
      () => "no answer",
    );
    await waitFor(
      "the evaluation's re-import under way",
      async () => {
        const [row] = (await importsOf(first.url, cookie)) as (ImportRow & { reason: string })[];
        return row?.reason === "evaluation" && row.fetched > 0 ? true : undefined;
      },
      60_000,
    );
    await kill9(first);
    expect(await asked).toBe("no answer");

    // The evaluation was a job, and the next server runs it again once the dead one's claim
    // lapses: the trader asking meanwhile hears "already running" (409) or "still importing"
    // (425), then the grade the job made (2002), or a new one if they asked after it (200).
    const second = await start(env);
    const outcome = await waitFor(
      "a grade",
      async () => {
        const answer = await evaluation(second.url, cookie);
        if (answer.code === 200 || answer.code === 2002) return answer;
        if (answer.code !== 409 && answer.code !== 425) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
        await new Promise((r) => setTimeout(r, 1000));
        return undefined;
      },
      120_000,
    );
    // Asked once more, nothing new: the same grade, no try.
    expect(await evaluation(second.url, cookie)).toMatchObject({
      code: 2002,
      verification_code: outcome.verification_code,
    });
    expect((await gradeLog(second.url)).map((e) => e.record.code)).toEqual([outcome.verification_code]);
    expect(await triesLeft(second.url, cookie)).toBe(2);
    expect(await second.stop()).toBe(0);
    expect(await invariantProblems(env, { users: [email], grades: [outcome.verification_code!] })).toEqual([]);
  });
});

describe("kill -9 during payment webhooks", () => {
  it("after Stripe's redelivery every pass is granted exactly once, and every acknowledged one survived", async () => {
    const env = await scenario();
    const first = await start(env);
    const buyers: { cookie: string; email: string; session: string; payload: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const { cookie, email } = await signUp({ base: first.url });
      // Two sessions each: twelve deliveries in flight when the process dies.
      for (let j = 0; j < 2; j++) {
        const { session_id } = await newCheckoutSession(first.url, cookie);
        buyers.push({ cookie, email, session: session_id, payload: fixtureEvent(session_id) });
      }
    }
    // All at once; the process is killed as soon as the first is answered. An answer's status is
    // Stripe's acknowledgement (its body may be cut off by the kill): the event's effects committed
    // before it was sent.
    const answers = buyers.map((b) =>
      deliver(first.url, b.payload, sign(b.payload)).then(
        (res) => res.status,
        () => null,
      ),
    );
    await Promise.race(answers);
    await kill9(first);
    const settled = await Promise.all(answers);
    const acknowledged = buyers.filter((_, i) => settled[i] === 200);
    // The kill came in the middle of the burst: some answered, some not.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThan(buyers.length);
    expect(settled.filter((s) => s !== null && s !== 200)).toEqual([]);

    // Stripe redelivers every event it has no 2xx for, and may redeliver the others too: all of them,
    // signed anew. What was acknowledged is a duplicate now; the rest is granted now if it was not
    // before the kill.
    const second = await start(env);
    for (const [i, b] of buyers.entries()) {
      const res = await deliver(second.url, b.payload, sign(b.payload));
      expect(res.status).toBe(200);
      const { duplicate } = (await res.json()) as { duplicate: boolean };
      // Acknowledged, it committed; unanswered, it may have committed before the kill, or not.
      if (settled[i] === 200) expect(duplicate).toBe(true);
    }
    // Two starter passes (10 evaluations each) per buyer, once each.
    for (const b of buyers.filter((_, i) => i % 2 === 0)) expect(await triesLeft(second.url, b.cookie)).toBe(3 + 20);
    expect(await second.stop()).toBe(0);
    expect(
      await invariantProblems(env, {
        users: buyers.map((b) => b.email),
        stripeEvents: acknowledged.map((b) => JSON.parse(b.payload).id as string),
        passGrants: acknowledged.map((b) => b.session),
      }),
    ).toEqual([]);
  });
});

import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrl, get, signUp, waitForImports } from "../support/http";

// A statement file through the real path (issue 33, DECISIONS 198): the upload, its import and
// automatic grade as jobs, the grade self-reported on every surface, never on the leaderboard or
// in the grade log; hostile files refused with a 4xx and nothing stored.

const TEMPLATE = readFileSync(path.resolve(import.meta.dirname, "../../public/statement-template.csv"));

async function upload(
  pathName: "/api/statements" | "/link/statement",
  cookie: string,
  file: Uint8Array | string,
  name = "statement.csv",
) {
  const form = new FormData();
  form.append("file", new Blob([typeof file === "string" ? file : new Uint8Array(file)]), name);
  return fetch(baseUrl() + pathName, {
    method: "POST",
    body: form,
    headers: { cookie, origin: baseUrl() },
    redirect: "manual",
  });
}

// The database the shared server runs on, when it is PostgreSQL (PGlite lives in its process).
const db = process.env.DATABASE_URL ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : null;
await db?.connect();
afterAll(() => db?.end());

async function userId(cookie: string): Promise<number> {
  const res = await get("/api/user/info", { cookie });
  return ((await res.json()) as { data: { id: number } }).data.id;
}

async function storedRows(cookie: string) {
  if (!db) return null;
  const { rows } = await db.query<{ accounts: number; trades: number; flows: number }>(
    `select count(distinct a.id)::int as accounts,
       (select count(*)::int from trades t join linked_accounts b on b.id = t.linked_account_id where b.user_id = $1) as trades,
       (select count(*)::int from cash_flows c join linked_accounts b on b.id = c.linked_account_id where b.user_id = $1) as flows
     from linked_accounts a where a.user_id = $1`,
    [await userId(cookie)],
  );
  return rows[0]!;
}

describe("a statement file, self-reported", () => {
  it("grades an uploaded CSV as self-reported on the card, profile, share page, /verify and the API", async () => {
    const { cookie } = await signUp();
    const res = await upload("/api/statements", cookie, TEMPLATE, "my-broker-2024.csv");
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({
      kind: "statement",
      format: "csv",
      rows: 9,
      trades: 3,
      cash_flows: 2,
      events: 4,
      created: true,
      unchanged: false,
      self_reported: true,
      graded: true,
      status: "importing",
    });
    const [done] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });

    // The API: the card's answer carries the mark, and the evaluation's outcome too.
    const id = await userId(cookie);
    const share = await fetch(`${baseUrl()}/api/share/image/${id}`, { method: "POST", headers: { cookie } });
    const card = (
      (await share.json()) as { data: { verification_code: string; self_reported: boolean; share_url: string } }
    ).data;
    expect(card.self_reported).toBe(true);
    // The card PNG is drawn with "Self-reported" (its layout is held by the card tests; here, that it exists).
    const png = await fetch(card.share_url.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");

    const profile = await (await get("/profile", { cookie })).text();
    expect(profile).toContain("Self-reported");
    const publicProfile = await (await get(`/u/${id}`, { cookie })).text();
    expect(publicProfile).toContain("Self-reported");
    const sharePage = await (await get(`/share/open_graph/${id}`)).text();
    expect(sharePage).toContain("Self-reported:");
    const verify = await get(`/verify/${card.verification_code}`);
    const verifyText = await verify.text();
    expect(verify.status).toBe(200);
    expect(verifyText).toContain("Self-reported evaluation");
    expect(verifyText).not.toContain("Verified evaluation");

    // Never in the public grade log, never on the market leaderboard.
    const record = await get(`/verify/${card.verification_code}/record.json`);
    expect(record.status).toBe(404);
    if (db) {
      const board = await db.query("select 1 from market_leaderboard where user_id = $1", [id]);
      expect(board.rows).toEqual([]);
      const ev = await db.query<{ self_reported: boolean; score: number | null }>(
        "select e.self_reported, e.score from users u join evaluations e on e.id = u.current_evaluation_id where u.id = $1",
        [id],
      );
      expect(ev.rows[0]).toMatchObject({ self_reported: true });
    }

    // The same file again changes nothing; a new file replaces the rows.
    const again = await upload("/api/statements", cookie, TEMPLATE, "my-broker-2024.csv");
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      unchanged: true,
      status: "unchanged",
      import_id: null,
    });
    const smaller = `date,type,symbol,quantity,price,amount\n2024-01-02,deposit,,,,5000\n2024-01-03,buy,MSFT,5,370,\n`;
    const replaced = await upload("/api/statements", cookie, smaller);
    expect(replaced.status).toBe(200);
    await waitForImports(cookie, { timeoutMs: 60_000 });
    const rows = await storedRows(cookie);
    if (rows) expect(rows).toEqual({ accounts: 1, trades: 1, flows: 1 });
  }, 120_000);

  it("grades an IBKR Flex XML file, its currency exchanges valued on both sides", async () => {
    const { cookie } = await signUp();
    const flex = readFileSync(path.resolve(import.meta.dirname, "../fixtures/ibkr/activity.xml"));
    const res = await upload("/api/statements", cookie, flex, "activity.xml");
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({ format: "flex", trades: 5, self_reported: true });
    const [done] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });

    // EUR.USD and EUR.GBP are exchanges of cash (DECISIONS 206); the pounds one buys have rates
    // too, though no other row is in pounds, so nothing in the statement is left unvalued.
    const ledger = (
      (await (await get("/api/portal/ledger", { cookie })).json()) as {
        data: { events: { kind: string; sell?: string; buy?: string }[] };
      }
    ).data;
    expect(ledger.events.filter((e) => e.kind === "fx").map((e) => `${e.sell}→${e.buy}`)).toEqual([
      "USD→EUR",
      "EUR→GBP",
    ]);
    if (db) {
      const ev = await db.query<{ result: unknown }>(
        "select e.result from users u join evaluations e on e.id = u.current_evaluation_id where u.id = $1",
        [await userId(cookie)],
      );
      expect(ev.rows).toHaveLength(1);
      const warnings = (ev.rows[0]!.result as { warnings?: string[] }).warnings ?? [];
      expect(warnings.filter((w) => /could not be valued/.test(w))).toEqual([]);
    }
  }, 120_000);

  it.each([
    [
      "a bad line",
      `date,type,symbol,quantity,price\n2024-01-02,buy,AAPL,1,ten\n`,
      400,
      /line 2: price is not a number/,
    ],
    [
      "a formula cell",
      `date,type,symbol,quantity,price\n2024-01-02,buy,=CMD(),1,10\n`,
      400,
      /line 2: symbol starts with "="/,
    ],
    ["a zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]), 415, /zip archive/],
    ["Latin-1 text", new Uint8Array([...Buffer.from("date,type\n2024-01-02,dep"), 0xe9, 0x0a]), 415, /not UTF-8/],
    ["a broken IBKR Flex XML file", `<FlexQueryResponse queryName="q"><FlexStatements>`, 400, /not valid XML/],
    ["another kind of markup", `<html><body>statement</body></html>`, 415, /Accepted formats: IBKR Flex XML or CSV/],
  ])("refuses %s with a 4xx in words and stores nothing", async (_what, file, status, message) => {
    const { cookie } = await signUp();
    const res = await upload("/api/statements", cookie, file);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { message: string; lines?: string[] } };
    expect([body.error.message, ...(body.error.lines ?? [])].join("\n")).toMatch(message);
    const imports = (await (await get("/api/portal/imports", { cookie })).json()) as { data: unknown[] };
    expect(imports.data).toEqual([]);
    const rows = await storedRows(cookie);
    if (rows) expect(rows).toEqual({ accounts: 0, trades: 0, flows: 0 });
  });

  it("refuses a 50 MB upload from its declared length, before reading it", async () => {
    const { cookie } = await signUp();
    // Only the first 64 KiB of the declared 50 MB are ever sent: an answer proves the server did not
    // wait for (or read) the rest.
    const url = new URL("/api/statements", baseUrl());
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: "POST",
          headers: {
            cookie,
            origin: baseUrl(),
            "content-type": "multipart/form-data; boundary=----grader",
            "content-length": String(50 * 1024 * 1024),
          },
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.write(Buffer.alloc(64 * 1024, 0x41));
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { error: { message: string } }).error.message).toMatch(/too large/);
    const rows = await storedRows(cookie);
    if (rows) expect(rows).toEqual({ accounts: 0, trades: 0, flows: 0 });
  });

  it("answers the page's plain post with the lines at fault, and a good file with the account page", async () => {
    const { cookie } = await signUp();
    const page = await get("/link/statement", { cookie });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toContain('href="/statement-template.csv"');
    const bad = await upload("/link/statement", cookie, `date,type,symbol,quantity,price\n2024-01-02,buy,AAPL,x,1\n`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("line 2: quantity is not a number");
    const good = await upload("/link/statement", cookie, TEMPLATE);
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toBe("/profile/account#imports");
    const template = await get("/statement-template.csv");
    expect(template.status).toBe(200);
    expect((await template.text()).split("\n")[0]).toBe(
      "date,type,symbol,quantity,price,fee,currency,amount,asset_class,account",
    );
    await waitForImports(cookie, { timeoutMs: 60_000 });
  }, 90_000);
});

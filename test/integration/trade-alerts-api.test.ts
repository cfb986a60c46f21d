import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { ZodTypeAny } from "zod";
import { describe, expect, it } from "vitest";
import { apiRegistry } from "~/server/http/openapi.server";
import { baseUrl, get, postForm, signUp } from "../support/http";

// The JSON API of live trade alerts (issue 34, DECISIONS 215): the caller's own sharing settings
// (GET, PATCH of the fields sent) and their subscriptions (GET, POST, DELETE), with the profile
// form's rules (follow first, the trader shares, no block), every answer checked against the zod
// schema the OpenAPI document is generated from.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;
type Member = { cookie: string; id: number };

async function member(): Promise<Member> {
  const { cookie } = await signUp();
  const res = await postForm(
    "/user-questions",
    { username: `ta${run}_${seq++}`, first_name: "", last_name: "", experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id };
}

const routes = apiRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : []));

/** Calls the API as a page on our origin would, and checks the answer against its documented schema. */
async function call(
  m: Member | null,
  method: "GET" | "PATCH" | "POST" | "DELETE",
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked against the schema below
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { origin: baseUrl() };
  if (m) headers.cookie = m.cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(baseUrl() + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  const route = routes.find((r) => r.method === method.toLowerCase() && r.path === path) as RouteConfig;
  const documented = route.responses[res.status] as { content?: Record<string, { schema: ZodTypeAny }> } | undefined;
  expect(documented, `${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`).toBeDefined();
  const parsed = documented!.content!["application/json"]!.schema.safeParse(json);
  expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(json)).toEqual([]);
  return { status: res.status, body: json };
}

const SETTINGS = "/api/portal/trade_alerts/settings";
const SUBS = "/api/portal/trade_alerts/subscriptions";

describe("live trade alerts in the JSON API", () => {
  it("reads and changes the caller's own sharing, only the fields sent, refusing what is not a setting", async () => {
    expect((await call(null, "GET", SETTINGS)).status).toBe(401);
    const tom = await member();
    const fresh = await call(tom, "GET", SETTINGS);
    expect(fresh.body.data).toEqual({ enabled: false, delay: "15m", hide_sizes: true, since: null, time_zone: "UTC" });

    const on = await call(tom, "PATCH", SETTINGS, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ enabled: true, delay: "15m", hide_sizes: true });
    const since = on.body.data.since as string;
    expect(Math.abs(Date.parse(since) - Date.now())).toBeLessThan(60_000);

    // Another field alone: sharing stays on and `since` does not move.
    const eod = await call(tom, "PATCH", SETTINGS, { delay: "eod", hide_sizes: false });
    expect(eod.body.data).toEqual({ enabled: true, delay: "eod", hide_sizes: false, since, time_zone: "UTC" });

    const empty = await call(tom, "PATCH", SETTINGS, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("Send enabled, delay or hide_sizes.");
    const wrong = await call(tom, "PATCH", SETTINGS, { delay: "1h" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.delay).toBe("Use one of none, 15m, eod.");
    const unknown = await call(tom, "PATCH", SETTINGS, { enabled: true, amount: 5 });
    expect(unknown.status).toBe(400);
    expect((await call(tom, "GET", SETTINGS)).body.data).toMatchObject({ delay: "eod", hide_sizes: false });

    // The settings page shows what the API saved.
    const page = await (await get("/user/settings/live-alerts", { cookie: tom.cookie })).text();
    expect(page).toMatch(/value="eod"[^>]*checked|checked[^>]*value="eod"/);

    // Another site cannot change it; PUT is not a method of this call.
    const foreign = await fetch(baseUrl() + SETTINGS, {
      method: "PATCH",
      headers: { cookie: tom.cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    expect(foreign.status).toBe(403);
    const put = await fetch(baseUrl() + SETTINGS, {
      method: "PUT",
      headers: { cookie: tom.cookie, origin: baseUrl(), "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, PATCH");
    expect((await call(tom, "GET", SETTINGS)).body.data.enabled).toBe(true);
  });

  it("subscribes, lists and unsubscribes with the profile's rules: follow first, a sharing trader, no block", async () => {
    const [tom, vic, ann] = await Promise.all([member(), member(), member()]);
    expect((await call(null, "GET", SUBS)).status).toBe(401);
    expect((await call(vic, "GET", SUBS)).body.data).toEqual([]);

    const notSharing = await call(vic, "POST", SUBS, { trader_id: tom.id });
    expect(notSharing.status).toBe(409);
    expect(notSharing.body.error.message).toBe("This trader does not share trades live.");
    await call(tom, "PATCH", SETTINGS, { enabled: true });
    const notFollowing = await call(vic, "POST", SUBS, { trader_id: tom.id });
    expect(notFollowing.status).toBe(409);
    expect(notFollowing.body.error.message).toBe("Follow this trader first to get their live trade alerts.");

    expect((await postForm(`/u/${tom.id}`, { intent: "follow" }, { cookie: vic.cookie })).status).toBeLessThan(400);
    const done = await call(vic, "POST", SUBS, { trader_id: tom.id });
    expect(done.status).toBe(201);
    expect(done.body.data).toEqual({ trader_id: tom.id, subscribed: true });
    expect((await call(vic, "POST", SUBS, { trader_id: tom.id })).status).toBe(201);
    const list = await call(vic, "GET", SUBS);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      trader: { id: tom.id, username: expect.stringMatching(/^ta/) },
      sharing: true,
    });
    // The profile says the same.
    expect(await (await get(`/u/${tom.id}`, { cookie: vic.cookie })).text()).toContain("Stop live trade alerts");
    // Someone else's list is their own.
    expect((await call(ann, "GET", SUBS)).body.data).toEqual([]);

    // The trader stops sharing: the subscription stays, marked.
    await call(tom, "PATCH", SETTINGS, { enabled: false });
    expect((await call(vic, "GET", SUBS)).body.data[0].sharing).toBe(false);
    await call(tom, "PATCH", SETTINGS, { enabled: true });

    expect((await call(vic, "POST", SUBS, { trader_id: vic.id })).status).toBe(400);
    const nobody = await call(vic, "POST", SUBS, { trader_id: 2_147_000_000 });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.message).toBe("No such trader.");
    const badId = await call(vic, "POST", SUBS, { trader_id: "abc" });
    expect(badId.status).toBe(400);
    expect(Object.keys(badId.body.error.fields)).toEqual(["trader_id"]);

    const gone = await call(vic, "DELETE", SUBS, { trader_id: tom.id });
    expect(gone.body.data).toEqual({ trader_id: tom.id, subscribed: false });
    expect((await call(vic, "GET", SUBS)).body.data).toEqual([]);

    // A block either way refuses it.
    expect((await postForm(`/u/${ann.id}`, { intent: "follow" }, { cookie: tom.cookie })).status).toBeLessThan(400);
    expect((await postForm(`/u/${tom.id}`, { intent: "block" }, { cookie: ann.cookie })).status).toBeLessThan(400);
    await call(ann, "PATCH", SETTINGS, { enabled: true });
    const blocked = await call(tom, "POST", SUBS, { trader_id: ann.id });
    expect(blocked.status).toBe(403);
    expect((await call(tom, "GET", SUBS)).body.data).toEqual([]);
  });
});

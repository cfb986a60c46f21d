import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

// Notifications end to end: each kind is made by the real action (a form post or the import job),
// only its owner sees or marks it, the API answers the page's data as JSON, and a kind turned off
// in the settings is not recorded.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

type Member = { cookie: string; id: number; username: string };
type Note = {
  id: string;
  kind: string;
  text: string;
  url: string;
  count: number;
  actor: { id: number; name: string } | null;
  data: Record<string, unknown>;
  created_at: string;
  read: boolean;
};
type Answer = {
  data: Note[];
  meta: { page: number; page_size: number; total: number; unread: number; sort_by: string; order: string };
};

async function member(first: string, last = `N${run}`): Promise<Member> {
  const { cookie } = await signUp();
  const username = `nt${run}${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: first, last_name: last, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id, username };
}

async function notes(m: Member, query = ""): Promise<Answer> {
  const res = await get(`/api/portal/notifications${query}`, { cookie: m.cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as Answer;
}

async function post(m: Member, body: string): Promise<string> {
  expect((await postForm("/community", { body, intent: "post" }, { cookie: m.cookie })).status).toBe(303);
  const res = await get(`/community?_data=${encodeURIComponent("routes/community")}`, { cookie: m.cookie });
  const feed = (await res.json()) as { posts: { id: string; body: string }[] };
  return feed.posts.find((p) => p.body === body)!.id;
}

const of = (a: Answer, kind: string) => a.data.filter((n) => n.kind === kind);

describe("each kind comes from its action", () => {
  let ann: Member, bob: Member;
  beforeAll(async () => {
    [ann, bob] = await Promise.all([member("Ann"), member("Bob")]);
  });

  it("follow", async () => {
    expect((await postForm(`/u/${ann.id}`, { intent: "follow" }, { cookie: bob.cookie })).status).toBe(303);
    const [n] = of(await notes(ann), "follow");
    expect(n).toMatchObject({
      text: `Bob N${run} started following you`,
      url: `/u/${bob.id}`,
      actor: { id: bob.id },
      read: false,
      count: 1,
    });
    // Nobody hears of their own action.
    expect(of(await notes(bob), "follow")).toEqual([]);
  });

  it("message request, then messages merged per conversation, read by opening the conversation", async () => {
    const carl = await member("Carl");
    const first = await postForm(`/u/${carl.id}`, { intent: "message", body: "hello" }, { cookie: ann.cookie });
    const conv = Number(/\/messages\/(\d+)\/reply/.exec(first.headers.get("location")!)![1]);
    expect(of(await notes(carl), "message_request")).toMatchObject([
      { text: `Ann N${run} wants to send you a message`, url: `/messages/${conv}/request` },
    ]);
    expect(
      (await postForm(`/messages/${conv}/request`, { answer: "accept" }, { cookie: carl.cookie })).status,
    ).toBeLessThan(400);
    for (const body of ["one", "two"])
      expect((await postForm(`/messages/${conv}/reply`, { body }, { cookie: ann.cookie })).status).toBe(303);
    const [m] = of(await notes(carl), "message");
    expect(m).toMatchObject({
      count: 2,
      text: `Ann N${run} sent you 2 messages`,
      url: `/messages/${conv}/reply`,
      read: false,
    });
    expect((await get(`/messages/${conv}/reply`, { cookie: carl.cookie })).status).toBe(200);
    expect(of(await notes(carl), "message")[0]!.read).toBe(true);
  });

  it("like, reply and mention", async () => {
    const id = await post(ann, `Ann's post ${run}`);
    expect((await postForm(`/posts/${id}?index`, { intent: "like" }, { cookie: bob.cookie })).status).toBe(303);
    expect(of(await notes(ann), "like")).toMatchObject([{ text: `Bob N${run} liked your post`, url: `/posts/${id}` }]);
    // A reply that also names the post's author is one notification (the reply), not two.
    expect(
      (
        await postForm(
          `/posts/${id}?index`,
          { intent: "reply", body: `agreed @${ann.username}` },
          { cookie: bob.cookie },
        )
      ).status,
    ).toBe(303);
    const replies = of(await notes(ann), "reply");
    expect(replies).toHaveLength(1);
    expect(replies[0]!.url).toMatch(new RegExp(`^/posts/${id}/\\d+$`));
    expect(replies[0]!.data.excerpt).toBe(`agreed @${ann.username}`);
    expect(of(await notes(ann), "mention")).toEqual([]);
    const dan = await member("Dan");
    const mentioning = await post(bob, `ask @${dan.username} and @nobody${run} about it`);
    expect(of(await notes(dan), "mention")).toMatchObject([
      { text: `Bob N${run} mentioned you in a post`, url: `/posts/${mentioning}` },
    ]);
  });

  it("an import that ends failed is told, pointing at the account page", async () => {
    const trader = await member("Fay");
    const res = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: trader.cookie },
      // The simulator answers this item's second transactions page 500, every time.
      body: JSON.stringify({ public_token: `public-sandbox-server-error-user_good_${run}${seq}` }),
    });
    expect(res.status).toBeLessThan(300);
    const [failed] = await waitForImports(trader.cookie);
    expect(failed).toMatchObject({ state: "failed" });
    const [told] = of(await notes(trader), "import_failed");
    expect(told).toMatchObject({ url: "/profile/account#imports", actor: null });
    expect(told!.text).toMatch(/^Your .+ import failed: see your account page for why and to retry$/);
    expect(String(told!.data.error)).toContain("INTERNAL_SERVER_ERROR");
  });

  it("import done, grade done, and the grade change for followers", async () => {
    const trader = await member("Tia");
    const fan = await member("Fan");
    expect((await postForm(`/u/${trader.id}`, { intent: "follow" }, { cookie: fan.cookie })).status).toBe(303);
    const res = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: trader.cookie },
      body: JSON.stringify({ public_token: `public-sandbox-user_good_${run}${seq}` }),
    });
    expect(res.status).toBeLessThan(300);
    await waitForImports(trader.cookie);
    const mine = await notes(trader);
    const [imported] = of(mine, "import_done");
    expect(imported!.text).toMatch(/^Your .+ import finished: [\d,]+ new trades?$/);
    expect(Number(imported!.data.trades_added)).toBeGreaterThan(0);
    const [graded] = of(mine, "grade_done");
    expect(graded).toMatchObject({ url: "/profile/stats", actor: null });
    const tier = String(graded!.data.tier);
    expect(graded!.text).toBe(`Your new grade is ready: ${tier}`);
    // Plaid's first 30 days may be graded before the full history arrives (HISTORICAL_UPDATE): then
    // the follower reads a change to the final tier rather than a first grade.
    const [change] = of(await notes(fan), "grade_change");
    expect(change).toMatchObject({ url: `/u/${trader.id}`, data: { to: tier } });
    expect(change!.text).toMatch(
      new RegExp(`^Tia N${run}(’s grade changed from \\w+ to | got a first grade: )${tier}$`),
    );
  });
});

describe("privacy, reading and the API", () => {
  let eve: Member, fay: Member, gus: Member;
  beforeAll(async () => {
    [eve, fay, gus] = await Promise.all([member("Eve"), member("Fay"), member("Gus")]);
    await postForm(`/u/${eve.id}`, { intent: "follow" }, { cookie: fay.cookie });
    await postForm(`/u/${eve.id}`, { intent: "follow" }, { cookie: gus.cookie });
    await postForm(`/u/${fay.id}`, { intent: "follow" }, { cookie: gus.cookie });
  });

  it("answers { data, meta } with the unread count, paged; 400 on bad paging, 401 without a session", async () => {
    const all = await notes(eve);
    expect(all.meta).toEqual({ page: 1, page_size: 20, total: 2, unread: 2, sort_by: "created_at", order: "desc" });
    expect(all.data.map((n) => n.actor!.id)).toEqual([gus.id, fay.id]);
    expect(Object.keys(all.data[0]!).sort()).toEqual([
      "actor",
      "count",
      "created_at",
      "data",
      "id",
      "kind",
      "read",
      "text",
      "url",
    ]);
    const second = await notes(eve, "?page=2&page_size=1");
    expect(second.data.map((n) => n.actor!.id)).toEqual([fay.id]);
    expect(second.meta).toMatchObject({ page: 2, page_size: 1, total: 2, unread: 2 });
    for (const q of ["?page_size=500", "?sort_by=kind", "?page=0", "?order=asc"]) {
      const res = await get(`/api/portal/notifications${q}`, { cookie: eve.cookie });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message.length).toBeGreaterThan(5);
    }
    const anon = await get("/api/portal/notifications");
    expect(anon.status).toBe(401);
  });

  it("a user never sees or marks another's notifications", async () => {
    const fays = await notes(fay);
    expect(fays.data.map((n) => n.actor!.id)).toEqual([gus.id]);
    const html = await (await get("/notifications", { cookie: fay.cookie })).text();
    expect(html).toContain("Gus N");
    expect(html).not.toContain("Fay N" + run + " started following you");
    const eves = await notes(eve);
    for (const intent of ["read", "open"]) {
      const res = await postForm("/notifications", { intent, id: eves.data[0]!.id }, { cookie: fay.cookie });
      expect(res.status).toBe(404);
    }
    expect((await notes(eve)).meta.unread).toBe(2);
    expect((await notes(fay)).meta.unread).toBe(1);
  });

  it("marks one read, opens one, and marks all read with plain form posts", async () => {
    const before = await notes(eve);
    const [newest, older] = before.data;
    const read = await postForm(
      "/notifications",
      { intent: "read", id: newest!.id, page: "1" },
      { cookie: eve.cookie },
    );
    expect(read.status).toBe(303);
    expect(read.headers.get("location")).toBe("/notifications");
    let now = await notes(eve);
    expect(now.meta.unread).toBe(1);
    expect(now.data.map((n) => n.read)).toEqual([true, false]);
    const open = await postForm("/notifications", { intent: "open", id: older!.id }, { cookie: eve.cookie });
    expect(open.status).toBe(303);
    expect(open.headers.get("location")).toBe(`/u/${fay.id}`);
    expect((await notes(eve)).meta.unread).toBe(0);
    await postForm(`/u/${eve.id}`, { intent: "unfollow" }, { cookie: fay.cookie });
    await postForm(`/u/${eve.id}`, { intent: "follow" }, { cookie: fay.cookie });
    expect((await notes(eve)).meta.unread).toBe(1);
    const all = await postForm("/notifications", { intent: "read-all", page: "2" }, { cookie: eve.cookie });
    expect(all.headers.get("location")).toBe("/notifications?page=2");
    now = await notes(eve);
    expect(now.meta.unread).toBe(0);
    expect((await postForm("/notifications", { intent: "explode" }, { cookie: eve.cookie })).status).toBe(400);
    expect((await postForm("/notifications", { intent: "read", id: "x'; drop" }, { cookie: eve.cookie })).status).toBe(
      404,
    );
  });
});

describe("settings", () => {
  it("a kind turned off is not recorded; the others still are; bad input is a 400 that saves nothing", async () => {
    const [hal, ivy] = await Promise.all([member("Hal"), member("Ivy")]);
    const bad = await postForm(
      "/user/settings/notifications",
      { kinds: ["message", "bogus"], digest: "daily" },
      { cookie: hal.cookie },
    );
    expect(bad.status).toBe(400);
    const on = [
      "message",
      "message_request",
      "like",
      "reply",
      "mention",
      "grade_change",
      "import_done",
      "import_failed",
      "grade_done",
    ];
    const saved = await postForm(
      "/user/settings/notifications",
      { kinds: on, digest: "weekly" },
      { cookie: hal.cookie },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Your notification settings are saved.");
    const page = await (await get("/user/settings/notifications", { cookie: hal.cookie })).text();
    expect(page).toContain('name="kinds" value="follow"/>');
    expect(page).toContain('name="digest" checked="" value="weekly"/>');
    await postForm(`/u/${hal.id}`, { intent: "follow" }, { cookie: ivy.cookie });
    expect((await notes(hal)).data).toEqual([]);
    await postForm(`/u/${hal.id}`, { intent: "message", body: "still here?" }, { cookie: ivy.cookie });
    expect((await notes(hal)).data.map((n) => n.kind)).toEqual(["message_request"]);
  });
});

describe("push", () => {
  const json = (m: Member | null, method: string, body: unknown) =>
    fetch(`${baseUrl()}/api/portal/push/subscriptions`, {
      method,
      headers: { "content-type": "application/json", origin: baseUrl(), ...(m ? { cookie: m.cookie } : {}) },
      body: JSON.stringify(body),
    });
  // A browser's subscription as PushSubscription.toJSON() gives it (65-byte key, 16-byte secret).
  const sub = (endpoint: string) => ({
    endpoint,
    keys: { p256dh: Buffer.alloc(65, 4).toString("base64url"), auth: Buffer.alloc(16, 7).toString("base64url") },
  });

  it("chooses the kinds to push with the plain form, muted kinds never pushed", async () => {
    const jo = await member("Jo");
    const saved = await postForm(
      "/user/settings/notifications",
      { kinds: ["message", "follow"], push: ["message", "like"], digest: "off" },
      { cookie: jo.cookie },
    );
    expect(saved.status).toBe(200);
    const page = await (await get("/user/settings/notifications", { cookie: jo.cookie })).text();
    expect(page).toMatch(/name="push" aria-label="Push: New messages"[^>]*checked="" value="message"\/>/);
    // Likes are muted, so the "Push" box of likes was not kept.
    expect(page).toMatch(/name="push" aria-label="Push: Likes of your posts"[^>]*push-hint" value="like"\/>/);
    expect(page).toContain("Push needs JavaScript in this browser");
    expect(
      (await postForm("/user/settings/notifications", { push: ["spam"], digest: "off" }, { cookie: jo.cookie })).status,
    ).toBe(400);
  });

  it("subscribes a browser with the server's key, refuses bad subscriptions, and removes only one's own", async () => {
    const [kim, lee] = await Promise.all([member("Kim"), member("Lee")]);
    const key = await get("/api/portal/push/subscriptions", { cookie: kim.cookie });
    expect(key.status).toBe(200);
    const { data } = (await key.json()) as { data: { public_key: string; subscriptions: number } };
    expect(Buffer.from(data.public_key, "base64url")).toHaveLength(65);
    expect(data.subscriptions).toBe(0);

    expect((await json(null, "POST", sub("https://fcm.googleapis.com/fcm/send/x"))).status).toBe(401);
    const insecure = await json(kim, "POST", sub("http://push.example/x"));
    expect(insecure.status).toBe(400);
    expect(((await insecure.json()) as { error: { message: string } }).error.message).toContain("https://");
    const shortKey = await json(kim, "POST", {
      ...sub("https://fcm.googleapis.com/fcm/send/x"),
      keys: { p256dh: "AAAA", auth: "BBBB" },
    });
    expect(shortKey.status).toBe(400);

    const endpoint = `https://fcm.googleapis.com/fcm/send/kim-${run}`;
    expect((await json(kim, "POST", sub(endpoint))).status).toBe(201);
    const after = (await (await get("/api/portal/push/subscriptions", { cookie: kim.cookie })).json()) as {
      data: { subscriptions: number };
    };
    expect(after.data.subscriptions).toBe(1);
    expect((await json(lee, "DELETE", { endpoint })).status).toBe(404);
    expect((await json(kim, "DELETE", { endpoint })).status).toBe(200);
    expect((await json(kim, "DELETE", { endpoint })).status).toBe(404);
  });
});

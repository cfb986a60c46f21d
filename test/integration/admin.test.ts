import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverWithAdmin } from "../support/admin";
import { get, postForm, signUp } from "../support/http";

// /admin: only admins see it (everyone else a 404, for pages and actions alike); reports are
// decided with hide / restore / dismiss, Star applications approved, users listed and searched.
let ctx: Awaited<ReturnType<typeof serverWithAdmin>>;
const base = () => ctx.server.url;

beforeAll(async () => {
  ctx = await serverWithAdmin();
}, 400_000);
afterAll(async () => {
  await ctx?.cleanup();
});

async function postBy(cookie: string, body: string) {
  const res = await postForm("/community", { intent: "post", body }, { base: base(), cookie });
  expect(res.status).toBe(303);
  const feed = (await (await get("/community?_data=routes%2Fcommunity", { base: base(), cookie })).json()) as {
    posts: { id: string; body: string }[];
  };
  return String(feed.posts.find((p) => p.body === body)!.id);
}

describe("/admin authorisation", () => {
  it("answers 404 to a signed-out visitor and to a signed-in non-admin, for pages and posted actions", async () => {
    const user = await signUp({ base: base() });
    for (const path of ["/admin", "/admin/reports", "/admin/stars", "/admin/users"]) {
      expect((await get(path, { base: base() })).status).toBe(404);
      expect((await get(path, { base: base(), cookie: user.cookie })).status).toBe(404);
    }
    const author = await signUp({ base: base() });
    const postId = await postBy(author.cookie, `not for outsiders ${Date.now()}`);
    expect(
      (await postForm("/admin/reports", { post_id: postId, decision: "hide" }, { base: base(), cookie: user.cookie }))
        .status,
    ).toBe(404);
    expect(
      (await postForm("/admin/users", { user_id: "1", role: "grant" }, { base: base(), cookie: user.cookie })).status,
    ).toBe(404);
    expect(
      (await postForm("/admin/stars", { user_id: "1", decision: "approved" }, { base: base(), cookie: user.cookie }))
        .status,
    ).toBe(404);
    // The post is still visible to everyone: nothing happened.
    expect((await get(`/posts/${postId}`, { base: base(), cookie: user.cookie })).status).toBe(200);
    // And the role did not move to the non-admin.
    expect((await get("/admin/users", { base: base(), cookie: user.cookie })).status).toBe(404);
  });

  it("opens to the admin, and a foreign-origin post is refused", async () => {
    const res = await get("/admin", { base: base(), cookie: ctx.admin.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/reports");
    const page = await (await get("/admin/reports", { base: base(), cookie: ctx.admin.cookie })).text();
    expect(page).toContain("Reported posts");
    const foreign = await postForm(
      "/admin/reports",
      { post_id: "1", decision: "hide" },
      { base: base(), cookie: ctx.admin.cookie, origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
  });
});

describe("/admin/reports", () => {
  it("lists reported posts; hide, restore and dismiss take effect at once and close the reports", async () => {
    const author = await signUp({ base: base() });
    const reporter = await signUp({ base: base() });
    const body = `report me ${Date.now()}`;
    const postId = await postBy(author.cookie, body);
    const reported = await postForm(
      `/posts/${postId}`,
      { intent: "report", post_id: postId, reason: "spam link" },
      { base: base(), cookie: reporter.cookie },
    );
    expect(reported.status).toBeLessThan(400);
    let page = await (await get("/admin/reports", { base: base(), cookie: ctx.admin.cookie })).text();
    expect(page).toContain(body);
    expect(page).toContain("spam link");

    const hide = await postForm(
      "/admin/reports",
      { post_id: postId, decision: "hide" },
      { base: base(), cookie: ctx.admin.cookie },
    );
    expect(hide.status).toBe(200);
    expect(await hide.text()).toContain(`Post ${postId} is hidden.`);
    expect((await get(`/posts/${postId}`, { base: base(), cookie: reporter.cookie })).status).toBe(404);
    page = await (await get("/admin/reports", { base: base(), cookie: ctx.admin.cookie })).text();
    expect(page).not.toContain(body);

    // Reported again by someone else, then restored: visible again.
    const other = await signUp({ base: base() });
    await postForm(
      `/posts/${postId}`,
      { intent: "report", post_id: postId, reason: "still bad" },
      { base: base(), cookie: other.cookie },
    );
    const restore = await postForm(
      "/admin/reports",
      { post_id: postId, decision: "restore" },
      { base: base(), cookie: ctx.admin.cookie },
    );
    expect(restore.status).toBe(200);
    expect((await get(`/posts/${postId}`, { base: base(), cookie: reporter.cookie })).status).toBe(200);

    // Dismiss: the reports close, the post stays as it is.
    const third = await signUp({ base: base() });
    await postForm(
      `/posts/${postId}`,
      { intent: "report", post_id: postId, reason: "meh" },
      { base: base(), cookie: third.cookie },
    );
    expect(await (await get("/admin/reports", { base: base(), cookie: ctx.admin.cookie })).text()).toContain("meh");
    const dismiss = await postForm(
      "/admin/reports",
      { post_id: postId, decision: "dismiss" },
      { base: base(), cookie: ctx.admin.cookie },
    );
    expect(dismiss.status).toBe(200);
    expect(await (await get("/admin/reports", { base: base(), cookie: ctx.admin.cookie })).text()).not.toContain(body);
    expect((await get(`/posts/${postId}`, { base: base(), cookie: reporter.cookie })).status).toBe(200);
  });

  it("bad input is a 400 and a missing post a 404, never a 500", async () => {
    expect(
      (
        await postForm(
          "/admin/reports",
          { post_id: "abc", decision: "hide" },
          { base: base(), cookie: ctx.admin.cookie },
        )
      ).status,
    ).toBe(400);
    expect(
      (await postForm("/admin/reports", { post_id: "1", decision: "burn" }, { base: base(), cookie: ctx.admin.cookie }))
        .status,
    ).toBe(400);
    expect(
      (
        await postForm(
          "/admin/reports",
          { post_id: "999999999", decision: "hide" },
          { base: base(), cookie: ctx.admin.cookie },
        )
      ).status,
    ).toBe(404);
  });
});

describe("/admin/users and the role", () => {
  it("lists and searches users; an admin grants the role to another, who may use /admin at once", async () => {
    const user = await signUp({ base: base() });
    const html = await (
      await get(`/admin/users?q=${encodeURIComponent(user.email)}`, { base: base(), cookie: ctx.admin.cookie })
    ).text();
    expect(html).toContain(user.email);
    // One row: the search matched only that user (the admin's own e-mail is in the page's header).
    expect(html.match(/data-user="\d+"/g)).toHaveLength(1);
    const id = html.match(/data-user="(\d+)"/)![1]!;
    const grant = await postForm(
      `/admin/users`,
      { user_id: id, role: "grant" },
      { base: base(), cookie: ctx.admin.cookie },
    );
    expect(grant.status).toBe(200);
    expect((await get("/admin/users", { base: base(), cookie: user.cookie })).status).toBe(200);
    await postForm(`/admin/users`, { user_id: id, role: "revoke" }, { base: base(), cookie: ctx.admin.cookie });
    expect((await get("/admin/users", { base: base(), cookie: user.cookie })).status).toBe(404);
  });
});

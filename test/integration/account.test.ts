import { describe, expect, it } from "vitest";
import { baseUrl, get, postForm, sessionCookie, signUp, uniqueEmail } from "../support/http";

async function latestMailTo(email: string) {
  const html = await (await get("/dev/mail")).text();
  const at = html.indexOf(`to ${email}`);
  if (at < 0) return null;
  return html.slice(at, html.indexOf("</li>", at));
}

/** The opening tag of the input named `name` in a page. */
function inputTag(html: string, name: string) {
  return html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? "";
}

function linkIn(mail: string, path: string) {
  const m = mail.match(new RegExp(`http://localhost:3000${path}\\?token=([A-Za-z0-9_-]+)`));
  return m ? `${path}?token=${m[1]}` : null;
}

describe("password reset", () => {
  it("answers the same for known and unknown emails and mails a single-use link built from PUBLIC_URL", async () => {
    const { email, cookie: oldCookie } = await signUp();
    const known = await postForm("/forgot-password", { email }, { headers: { host: "evil.example" } });
    const unknown = await postForm("/forgot-password", { email: uniqueEmail("nobody") });
    expect(known.status).toBe(302);
    expect(unknown.status).toBe(302);
    expect(known.headers.get("location")).toBe("/forgot-request-success");
    expect(unknown.headers.get("location")).toBe("/forgot-request-success");
    const mail = (await latestMailTo(email))!;
    expect(mail).toContain("Reset your Grader password");
    expect(mail).not.toContain("evil.example");
    const link = linkIn(mail, "/reset-password")!;
    expect(link).toBeTruthy();
    const token = link.split("token=")[1]!;

    const form = await get(link);
    const formHtml = await form.text();
    expect(formHtml).toContain("Choose a new password");
    // Both fields take the same length, so a long pasted password is never cut in one only.
    expect(inputTag(formHtml, "password")).toMatch(/maxLength="128"/i);
    expect(inputTag(formHtml, "confirm")).toMatch(/maxLength="128"/i);
    const reset = await postForm("/reset-password", {
      token,
      password: "a brand new password",
      confirm: "a brand new password",
    });
    expect(reset.status).toBe(302);
    expect(reset.headers.get("location")).toBe("/signin?reset=1");
    const signinPage = await (await get("/signin?reset=1")).text();
    expect(signinPage).toMatch(/role="status">Your password was changed. Log in with your new password.</);
    expect(await (await get("/signin")).text()).not.toContain("Your password was changed.");
    // Every session of the user is revoked; the new password works, the link works once.
    expect((await get("/api/user/info", { cookie: oldCookie })).status).toBe(401);
    expect((await postForm("/signin", { email, password: "a brand new password" })).status).toBe(302);
    const again = await postForm("/reset-password", {
      token,
      password: "yet another password",
      confirm: "yet another password",
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("expired or was already used");
  });

  it("refuses mismatched passwords and keeps the token", async () => {
    const res = await postForm("/reset-password", {
      token: "x",
      password: "long enough pw",
      confirm: "different pw!!",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The two passwords don&#x27;t match.");
  });
});

describe("email verification", () => {
  it("mails a link at sign-up, shows a banner until it is used, and verifies once", async () => {
    const { email, cookie } = await signUp();
    const page = await (await get("/community", { cookie })).text();
    expect(page).toContain("Please confirm your email address");
    const link = linkIn((await latestMailTo(email))!, "/verify-email")!;
    const first = await get(link);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Email verified");
    expect((await get(link)).status).toBe(400);
    const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { email_verified: boolean } };
    expect(info.data.email_verified).toBe(true);
    expect(await (await get("/community", { cookie })).text()).not.toContain("Please confirm your email address");
  });

  it("resends from the banner without JavaScript and comes back to the page", async () => {
    const { cookie } = await signUp();
    const res = await postForm("/verify-email/resend", { redirectTo: "/profile/stats" }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile/stats?verification=sent");
    // Again from the page it came back to: one answer in the address, the newer one.
    const again = await postForm(
      "/verify-email/resend",
      { redirectTo: "/profile/stats?verification=sent" },
      { cookie },
    );
    expect(again.headers.get("location")).toBe("/profile/stats?verification=sent");
  });
});

describe("settings and password change", () => {
  it("saves profile fields and the privacy choice; a taken username is refused beside the field", async () => {
    const a = await signUp();
    const b = await signUp();
    const username = `set_${Date.now().toString(36)}`;
    const ok = await postForm(
      "/user/settings",
      { username, first_name: "Ada", last_name: "", show_amounts: "amounts" },
      { cookie: a.cookie },
    );
    // Post, redirect, get: the address stays /user/settings (not ?index), and a reload posts nothing.
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/user/settings?done=saved");
    expect(await (await get("/user/settings?done=saved", { cookie: a.cookie })).text()).toContain(
      "Your settings are saved.",
    );
    const info = (await (await get("/api/user/info", { cookie: a.cookie })).json()) as {
      data: { username: string; first_name: string; last_name: string | null };
    };
    expect(info.data).toMatchObject({ username, first_name: "Ada", last_name: null });
    const taken = await postForm(
      "/user/settings",
      { username: username.toUpperCase(), first_name: "", last_name: "", show_amounts: "percentages" },
      { cookie: b.cookie },
    );
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("That username is taken.");
    const bad = await postForm(
      "/portal/settings",
      { username: "no spaces!", first_name: "", last_name: "", show_amounts: "percentages" },
      { cookie: b.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Use only lowercase letters, digits and _.");
    const short = await postForm(
      "/user/settings",
      { username: "ab", first_name: "", last_name: "", show_amounts: "percentages" },
      { cookie: b.cookie },
    );
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("At least 3 characters.");
  });

  it("changes the password after checking the current one and signs out other sessions only", async () => {
    const { email, password, cookie: here } = await signUp();
    const page = await (await get("/user/settings/change-password", { cookie: here })).text();
    expect(inputTag(page, "password")).toMatch(/maxLength="128"/i);
    expect(inputTag(page, "confirm")).toMatch(/maxLength="128"/i);
    const elsewhere = sessionCookie(await postForm("/signin", { email, password }));
    const wrong = await postForm(
      "/user/settings/change-password",
      { current: "not it at all", password: "new password 123", confirm: "new password 123" },
      { cookie: here },
    );
    expect(wrong.status).toBe(400);
    const ok = await postForm(
      "/user/settings/change-password",
      { current: password, password: "new password 123", confirm: "new password 123" },
      { cookie: here },
    );
    expect(ok.status).toBe(200);
    expect((await get("/api/user/info", { cookie: here })).status).toBe(200);
    expect((await get("/api/user/info", { cookie: elsewhere })).status).toBe(401);
  });

  it("stores onboarding answers", async () => {
    const { cookie } = await signUp();
    const username = `ob_${Date.now().toString(36)}`;
    const res = await postForm(
      "/user-questions",
      { username, first_name: "Lin", last_name: "Wu", markets: ["us-stocks", "crypto"], experience: "3-5" },
      { cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/community");
    const page = await (await get("/user-questions", { cookie })).text();
    expect(page).toMatch(/checked="" value="us-stocks"/);
    expect(page).toMatch(/checked="" value="crypto"/);
    expect(page).not.toMatch(/checked="" value="etfs"/);
    const bad = await postForm("/user-questions", { username, markets: ["forex"], experience: "" }, { cookie });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Choose from the listed markets.");
    expect(html).toContain("Choose your experience.");
    // A taken username keeps everything else the user typed (the page is all there is without JavaScript).
    const other = await signUp();
    const taken = await postForm(
      "/user-questions",
      { username, first_name: "Kim", last_name: "Park", markets: ["etfs"], experience: "5-10" },
      { cookie: other.cookie },
    );
    expect(taken.status).toBe(400);
    const again = await taken.text();
    expect(again).toContain("That username is taken.");
    expect(again).toContain('value="Kim"');
    expect(again).toContain('value="Park"');
    expect(again).toMatch(/checked="" value="etfs"/);
    expect(again).toMatch(/<option value="5-10" selected="">/);
  });
});

describe("avatar upload", () => {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEJMCJzAE0SA/3Z0O4QAAAAAElFTkSuQmCC",
    "base64",
  );
  async function upload(cookie: string, bytes: Buffer, name: string, type: string) {
    const form = new FormData();
    form.append("avatar", new Blob([new Uint8Array(bytes)], { type }), name);
    return fetch(baseUrl() + "/user/settings", {
      method: "POST",
      body: form,
      headers: { cookie, origin: baseUrl() },
      redirect: "manual",
    });
  }

  it("stores a PNG, serves it at a versioned URL, and lists it in the user record", async () => {
    const { cookie } = await signUp();
    const res = await upload(cookie, png, "me.png", "image/png");
    expect(res.status).toBe(302);
    const { data } = (await (await get("/api/user/info", { cookie })).json()) as {
      data: { avatar: string; id: number };
    };
    expect(data.avatar).toMatch(new RegExp(`^/avatars/${data.id}\\?v=`));
    const img = await get(data.avatar);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
  });

  /** The Avatar card: the upload form, whose feedback and Remove button belong inside it. */
  const avatarCard = (html: string) =>
    html.match(/<form[^>]*enctype="multipart\/form-data"[^>]*>[\s\S]*?<\/form>/i)?.[0] ?? "";

  it("answers in the Avatar card, with the Remove button in it, and removes without JavaScript", async () => {
    const { cookie } = await signUp();
    const uploaded = await upload(cookie, png, "me.png", "image/png");
    expect(uploaded.status).toBe(302);
    const html = await (await get(uploaded.headers.get("location")!, { cookie })).text();
    expect(avatarCard(html)).toMatch(/role="status">Your avatar is updated.</);
    expect(avatarCard(html)).toMatch(/name="intent" value="remove-avatar"/);
    expect(html).not.toContain("Your settings are saved.");
    const removed = await postForm("/user/settings", { intent: "remove-avatar", avatar: "me.png" }, { cookie });
    expect(removed.status).toBe(302);
    const after = await (await get(removed.headers.get("location")!, { cookie })).text();
    expect(avatarCard(after)).toMatch(/role="status">Your avatar is removed.</);
    expect(after).not.toContain("Remove avatar");
    expect(after).not.toContain("Your settings are saved.");
    const { data } = (await (await get("/api/user/info", { cookie })).json()) as { data: { avatar: string | null } };
    expect(data.avatar).toBeNull();
    const failed = await (await upload(cookie, Buffer.from("not an image"), "x.png", "image/png")).text();
    expect(avatarCard(failed)).toContain("Use a PNG, JPEG or WebP image.");
  });

  it("refuses a file that is not PNG, JPEG or WebP whatever its name, and one over 2 MB", async () => {
    const { cookie } = await signUp();
    const fake = await upload(
      cookie,
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
      "x.png",
      "image/png",
    );
    expect(fake.status).toBe(400);
    expect(await fake.text()).toContain("Use a PNG, JPEG or WebP image.");
    const big = await upload(cookie, Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 + 10)]), "big.png", "image/png");
    expect(big.status).toBe(400);
    expect(await big.text()).toContain("larger than 2 MB");
  });
});

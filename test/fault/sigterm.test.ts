import http from "node:http";
import { describe, expect, it } from "vitest";
import { postForm, signUp } from "../support/http";
import { invariantProblems } from "./invariants";
import { logged, scenario, start } from "./servers";

// SIGTERM (a deploy, a scale-down) while signed-in traders load pages and post. What server.ts
// promises (docs/OPERATIONS.md): it stops taking connections, finishes the requests it took within
// SHUTDOWN_TIMEOUT_MS and exits 0. So every request it took is answered in full, a success or a
// fast 503, never another 5xx nor a cut connection; a request it never took is refused at connect
// (or its unread connection closed); every post it acknowledged is in the database afterwards.

const RUN = Date.now().toString(36);

type Outcome = {
  method: string;
  path: string;
  started: number;
  ended: number;
  status?: number;
  body?: string;
  error?: string;
  /** The post's text, for a POST. */
  post?: string;
};

/** One request on a connection of its own, so no answer waits on another's keep-alive. */
function request(base: string, method: string, path: string, cookie: string, post?: string): Promise<Outcome> {
  const started = Date.now();
  const form = post === undefined ? undefined : new URLSearchParams({ body: post, intent: "post" }).toString();
  return new Promise((resolve) => {
    const req = http.request(
      base + path,
      {
        method,
        agent: false,
        headers: {
          cookie,
          connection: "close",
          ...(form
            ? {
                "content-type": "application/x-www-form-urlencoded",
                "content-length": Buffer.byteLength(form),
                origin: base,
              }
            : {}),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ method, path, post, started, ended: Date.now(), status: res.statusCode, body }));
        res.on("error", (e: NodeJS.ErrnoException) =>
          resolve({
            method,
            path,
            post,
            started,
            ended: Date.now(),
            status: res.statusCode,
            error: e.code ?? e.message,
          }),
        );
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ method, path, post, started, ended: Date.now(), error: e.code ?? e.message }),
    );
    req.end(form);
  });
}

describe("SIGTERM under load", () => {
  it("every request taken is answered in full (2xx/3xx or 503), every acknowledged post is kept, exit 0", async () => {
    // The access log counts the requests the server took.
    const env = await scenario({ LOG_REQUESTS: "1" });
    const server = await start(env);
    const traders = await Promise.all([0, 1, 2, 3].map(() => signUp({ base: server.url })));
    for (const t of traders) {
      const res = await postForm(
        "/community",
        { body: `warm-up ${t.email}`, intent: "post" },
        {
          base: server.url,
          cookie: t.cookie,
        },
      );
      expect(res.status).toBe(303);
    }

    const outcomes: Outcome[] = [];
    let refused = false;
    let n = 0;
    // Twelve clients in a loop until the server refuses connections: pages and posts.
    const clients = Array.from({ length: 12 }, async (_, c) => {
      const { cookie } = traders[c % traders.length]!;
      while (!refused) {
        const kind = n++ % 3;
        const outcome =
          kind === 0
            ? await request(server.url, "GET", "/community", cookie)
            : kind === 1
              ? await request(server.url, "GET", "/profile", cookie)
              : await request(server.url, "POST", "/community", cookie, `sigterm ${RUN} ${n}`);
        outcomes.push(outcome);
        if (outcome.error === "ECONNREFUSED") refused = true;
      }
    });

    // Load first, then SIGTERM with requests in flight.
    while (outcomes.length < 60) await new Promise((r) => setTimeout(r, 20));
    const sigterm = Date.now();
    const exited = server.stop();
    await Promise.all(clients);
    expect(await exited).toBe(0);
    expect(server.logs.join("\n")).not.toContain("shutdown timed out");
    expect(logged(server, "stopped")).toHaveLength(1);

    const answered = outcomes.filter((o) => o.status !== undefined);
    // Answers: a success, a redirect or the fast 503, and whole (a page to its end).
    expect(answered.filter((o) => !(o.status! < 400 || o.status === 503))).toEqual([]);
    expect(answered.filter((o) => o.error)).toEqual([]);
    for (const o of answered.filter((o) => o.status === 200)) expect(o.body).toContain("</html>");
    // Requests in flight when SIGTERM came were answered.
    expect(answered.filter((o) => o.started < sigterm && o.ended > sigterm).length).toBeGreaterThan(0);
    // The rest never reached the server: refused, or their connection closed unread. The access
    // log (one line per answered request) shows nothing was taken and then dropped.
    const failed = outcomes.filter((o) => o.status === undefined);
    expect(failed.filter((o) => !["ECONNREFUSED", "ECONNRESET", "EPIPE", "socket hang up"].includes(o.error!))).toEqual(
      [],
    );
    const taken = logged(server, "request").filter((e) => e.path === "/community" || e.path === "/profile");
    expect(taken.length).toBe(answered.length + traders.length);

    // Every post acknowledged (303) is in the database the next start opens.
    const posts = answered.filter((o) => o.status === 303).map((o) => o.post!);
    expect(posts.length).toBeGreaterThan(0);
    expect(await invariantProblems(env, { users: traders.map((t) => t.email), posts })).toEqual([]);
  });
});

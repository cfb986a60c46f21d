import { json, redirect, replace } from "@remix-run/node";
import { parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { createPost, deletePost, PostBody, reportPost, ReportInput, setLike } from "~/server/community/posts.server";
import { readForm } from "~/server/http/guards.server";

export type PostActionData = {
  ok: boolean;
  error?: string;
  values?: Record<string, string>;
};

/**
 * Every mutation on one post or reply (the page at /posts/:id or /posts/:id/:cid takes them):
 * reply, like, unlike, delete, report. Without JavaScript each ends in a redirect back to the page
 * the form came from (`redirect_to`, same-site only); errors of the reply form render on the page.
 */
export async function handlePostAction(request: Request, userId: number, postId: string, fallback: string) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const back = safeRedirect(form.get("redirect_to"), fallback);
  switch (intent) {
    case "reply": {
      const parsed = parseForm(PostBody, form);
      if (!parsed.ok)
        return json<PostActionData>(
          { ok: false, error: parsed.errors.body ?? "Check the form.", values: parsed.values },
          { status: 400 },
        );
      const result = await createPost(userId, { body: parsed.data.body, attachCard: parsed.data.attach_card }, postId);
      if (!result.ok) {
        if (result.status === 404) throw new Response("Not Found", { status: 404 });
        return json<PostActionData>(
          { ok: false, error: result.message, values: { body: parsed.data.body } },
          {
            status: result.status,
            headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined,
          },
        );
      }
      return redirect(fallback, 303);
    }
    case "like":
    case "unlike": {
      const result = await setLike(userId, postId, intent === "like");
      if (!result.ok) throw new Response("Not Found", { status: 404 });
      // Back to the page the like came from, with or without JavaScript. It replaces that page in the
      // history; the like's fetcher form keeps the scroll position.
      return replace(back, 303);
    }
    case "delete": {
      const result = await deletePost(userId, postId);
      if (!result.ok) throw new Response("Not Found", { status: 404 });
      // The deleted post's own page still exists (as a placeholder); going back is fine.
      return redirect(back, 303);
    }
    case "report": {
      const parsed = parseForm(ReportInput, form);
      const reason = parsed.ok ? parsed.data.reason : "Reported from the page";
      const result = await reportPost(userId, postId, reason);
      if (!result.ok) {
        if (result.status === 404) throw new Response("Not Found", { status: 404 });
        return json<PostActionData>({ ok: false, error: result.message }, { status: result.status });
      }
      // A post hidden by this report is gone for the reporter: don't send them back to its page.
      const to = new URL(result.hidden && back.startsWith("/posts/") ? "/community" : back, "http://x");
      to.searchParams.set("reported", "1");
      return redirect(to.pathname + to.search, 303);
    }
    default:
      return json<PostActionData>({ ok: false, error: "Unknown action." }, { status: 400 });
  }
}

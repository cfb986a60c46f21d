import { json, redirect, replace } from "@remix-run/node";
import { z } from "zod";
import { formText, parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { createPost, deletePost, PostBody, reportPost, ReportInput, setLike } from "~/server/community/posts.server";
import { readForm } from "~/server/http/guards.server";

export type PostActionData = {
  ok: boolean;
  error?: string;
  values?: Record<string, string>;
};

// Every intent may say where to go back to (same-site only); a report's reason that does not
// parse is the default one, as the report still counts.
const back = { redirect_to: formText };
const PostActionForm = z.discriminatedUnion("intent", [
  PostBody.extend({ intent: z.literal("reply"), ...back }),
  z.object({ intent: z.enum(["like", "unlike", "delete"]), ...back }),
  z.object({
    intent: z.literal("report"),
    ...back,
    reason: ReportInput.shape.reason.catch("Reported from the page"),
  }),
]);

/**
 * Every mutation on one post or reply (the page at /posts/:id or /posts/:id/:cid takes them):
 * reply, like, unlike, delete, report. Without JavaScript each ends in a redirect back to the page
 * the form came from (`redirect_to`, same-site only); errors of the reply form render on the page.
 */
export async function handlePostAction(request: Request, userId: number, postId: string, fallback: string) {
  const parsed = parseForm(PostActionForm, await readForm(request));
  if (!parsed.ok) {
    if (parsed.errors.intent) return json<PostActionData>({ ok: false, error: "Unknown action." }, { status: 400 });
    return json<PostActionData>(
      { ok: false, error: parsed.errors.body ?? "Check the form.", values: parsed.values },
      { status: 400 },
    );
  }
  const form = parsed.data;
  const back = safeRedirect(form.redirect_to, fallback);
  switch (form.intent) {
    case "reply": {
      const result = await createPost(userId, { body: form.body, attachCard: form.attach_card }, postId);
      if (!result.ok) {
        if (result.status === 404) throw new Response("Not Found", { status: 404 });
        return json<PostActionData>(
          { ok: false, error: result.message, values: { body: form.body } },
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
      const result = await setLike(userId, postId, form.intent === "like");
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
      const result = await reportPost(userId, postId, form.reason);
      if (!result.ok) {
        if (result.status === 404) throw new Response("Not Found", { status: 404 });
        return json<PostActionData>({ ok: false, error: result.message }, { status: result.status });
      }
      // A post hidden by this report is gone for the reporter: don't send them back to its page.
      const to = new URL(result.hidden && back.startsWith("/posts/") ? "/community" : back, "http://x");
      to.searchParams.set("reported", "1");
      return redirect(to.pathname + to.search, 303);
    }
  }
}

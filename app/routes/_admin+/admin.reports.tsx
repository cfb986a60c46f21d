import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { formDone, formError, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import {
  moderatePost,
  ModerationInput,
  openReportedPosts,
  pageParam,
  requireAdmin,
} from "~/server/accounts/admin.server";
import { readForm } from "~/server/http/guards.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Reported posts · Admin · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url));
  return json({ page, ...(await openReportedPosts(page)) });
}

const DONE = { hide: "hidden", restore: "restored", dismiss: "left as it is; its reports are dismissed" } as const;

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const parsed = parseForm(ModerationInput, await readForm(request));
  if (!parsed.ok) return json(formError(Object.values(parsed.errors)[0] ?? "Check the form."), { status: 400 });
  const { post_id, decision } = parsed.data;
  if (!(await moderatePost(post_id, decision))) return json(formError("That post no longer exists."), { status: 404 });
  return json(formDone(`Post ${post_id} is ${DONE[decision]}.`));
}

export default function AdminReports() {
  const { posts, page, more } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <section aria-labelledby="reports-h">
      <h2 id="reports-h">Reported posts</h2>
      {data?.notice ? (
        <p className="form-success" role="status">
          {data.notice}
        </p>
      ) : null}
      {data?.formError ? (
        <p className="form-error" role="alert">
          {data.formError}
        </p>
      ) : null}
      {posts.length === 0 ? (
        <EmptyState title="No open reports">
          Reports appear here until someone hides, restores or dismisses them.
        </EmptyState>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {posts.map((p) => (
            <li key={p.id} className="card stack" data-post={p.id}>
              <p className="muted small">
                {p.reports} open {p.reports === 1 ? "report" : "reports"} · by{" "}
                {p.author_username ? <Link to={`/u/${p.author_id}`}>@{p.author_username}</Link> : `user ${p.author_id}`}{" "}
                · {p.deleted ? "deleted by its author" : p.hidden ? "hidden" : "visible"}
              </p>
              <blockquote style={{ margin: 0, whiteSpace: "pre-wrap" }}>{p.body}</blockquote>
              <p className="small">Reasons: {p.reasons.join(" · ")}</p>
              <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
                {(["hide", "restore", "dismiss"] as const).map((decision) => (
                  <Form method="post" key={decision}>
                    <input type="hidden" name="post_id" value={p.id} />
                    <button
                      type="submit"
                      name="decision"
                      value={decision}
                      className={decision === "hide" ? "btn btn-primary" : "btn btn-ghost"}
                    >
                      {decision === "hide" ? "Hide" : decision === "restore" ? "Restore" : "Dismiss reports"}
                    </button>
                  </Form>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || more ? (
        <nav className="pager" aria-label="Report pages">
          {page > 1 ? <Link to={`?page=${page - 1}`}>Previous</Link> : <span />}
          {more ? <Link to={`?page=${page + 1}`}>Next</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

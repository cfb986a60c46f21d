import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { formDone, formError, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { requireAdmin, reviewStar, StarReviewInput } from "~/server/accounts/admin.server";
import { readForm } from "~/server/http/guards.server";
import { listStarApplications } from "~/server/community/stars.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Star applications · Admin · Grader", noindex: true });

const STATUSES = ["pending", "approved", "rejected"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const raw = new URL(request.url).searchParams.get("status");
  const status = STATUSES.find((s) => s === raw) ?? "pending";
  const rows = await listStarApplications(status);
  return json({
    status,
    applications: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString().slice(0, 10) })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const parsed = parseForm(StarReviewInput, await readForm(request));
  if (!parsed.ok) return json(formError(Object.values(parsed.errors)[0] ?? "Check the form."), { status: 400 });
  const { user_id, decision } = parsed.data;
  if (!(await reviewStar(user_id, decision)))
    return json(formError("No Star application from that user."), { status: 404 });
  return json(
    formDone(
      decision === "approved"
        ? `Approved: user ${user_id} is listed on /stars.`
        : `Rejected: user ${user_id} may apply again.`,
    ),
  );
}

export default function AdminStars() {
  const { status, applications } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <section aria-labelledby="stars-h">
      <h2 id="stars-h">Star applications</h2>
      <nav
        className="small"
        aria-label="Application status"
        style={{ display: "flex", gap: "1rem", marginBottom: "1rem" }}
      >
        {STATUSES.map((s) =>
          s === status ? (
            <strong key={s}>{s}</strong>
          ) : (
            <Link key={s} to={`?status=${s}`}>
              {s}
            </Link>
          ),
        )}
      </nav>
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
      {applications.length === 0 ? (
        <EmptyState title={`No ${status} applications`} />
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {applications.map((a) => (
            <li key={a.id} className="card stack" data-user={a.id}>
              <p>
                <strong>{a.username ? `@${a.username}` : `user ${a.id}`}</strong>{" "}
                <span className="muted small">
                  {a.email} · {a.tier ?? "no grade"} · applied {a.created_at}
                </span>
              </p>
              <p className="small">
                <strong>Bio:</strong> {a.bio}
              </p>
              <p className="small">
                <strong>Strategy:</strong> {a.strategy}
              </p>
              <p className="small">
                <strong>Markets:</strong> {a.markets}
              </p>
              <Form method="post" style={{ display: "flex", gap: "0.5rem" }}>
                <input type="hidden" name="user_id" value={a.id} />
                {a.status !== "approved" ? (
                  <button type="submit" name="decision" value="approved" className="btn btn-primary">
                    Approve
                  </button>
                ) : null}
                {a.status !== "rejected" ? (
                  <button type="submit" name="decision" value="rejected" className="btn btn-ghost">
                    Reject
                  </button>
                ) : null}
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

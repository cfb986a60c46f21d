import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatNumber } from "~/lib/format-number";
import { EmptyState, Page } from "~/components/Page";
import { seo } from "~/lib/seo";
import { requireUser } from "~/server/http/session.server";
import { starApplication, starDashboard } from "~/server/community/stars.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Star dashboard · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const application = await starApplication(user.id);
  if (application?.status !== "approved")
    return json({ status: application?.status ?? null, username: user.username, dashboard: null });
  return json({ status: application.status, username: user.username, dashboard: await starDashboard(user.id) });
}

export default function StarPersonal() {
  const { status, username, dashboard } = useLoaderData<typeof loader>();
  if (!dashboard) {
    return (
      <Page title="Star dashboard" lead="Followers over time, card views and where your shares come from.">
        <EmptyState
          title={status === "pending" ? "Your application is under review" : "You are not a Star yet"}
          action={
            <Link to="/star-apply" className="btn btn-ghost">
              {status ? "See your application" : "Apply"}
            </Link>
          }
        >
          Approved Stars see their audience figures here.
        </EmptyState>
      </Page>
    );
  }
  const maxViews = Math.max(1, ...dashboard.viewsByDay.map((d) => d.views));
  return (
    <Page
      title="Star dashboard"
      lead="Followers over time, card views and where your shares come from."
      actions={
        username ? (
          <Link to={`/star-profile?u=${encodeURIComponent(username)}`} className="btn btn-ghost">
            Your public showcase
          </Link>
        ) : null
      }
    >
      <div className="grid">
        <article className="card">
          <h2>Card views</h2>
          <p className="price" data-testid="card-views">
            {formatNumber(dashboard.cardViews, 0)}
          </p>
          <p className="muted">All-time views of your shared performance card.</p>
        </article>
        <article className="card">
          <h2>Followers</h2>
          {dashboard.followers ? (
            <p className="price">{formatNumber(dashboard.followers.at(-1)?.total ?? 0, 0)}</p>
          ) : (
            <p className="muted">Following opens with the community features; follower history will appear here.</p>
          )}
        </article>
      </div>
      <h2>Card views, last 30 days</h2>
      {dashboard.viewsByDay.length ? (
        <table className="table">
          <thead>
            <tr>
              <th>Day</th>
              <th className="num">Views</th>
              <th aria-hidden="true"></th>
            </tr>
          </thead>
          <tbody>
            {dashboard.viewsByDay.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td className="num">{d.views}</td>
                <td aria-hidden="true">
                  <span
                    style={{
                      display: "inline-block",
                      height: "0.6rem",
                      width: `${Math.round((d.views / maxViews) * 100)}%`,
                      minWidth: "2px",
                      background: "var(--accent, #7c5cff)",
                      borderRadius: 3,
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No views in the last 30 days. Share your card to get some.</p>
      )}
      <h2>Share sources</h2>
      {dashboard.viewsBySource.length ? (
        <table className="table" data-testid="share-sources">
          <thead>
            <tr>
              <th>Source</th>
              <th className="num">Views</th>
            </tr>
          </thead>
          <tbody>
            {dashboard.viewsBySource.map((s) => (
              <tr key={s.source}>
                <td>{s.source}</td>
                <td className="num">{s.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No views yet.</p>
      )}
      {dashboard.followers && dashboard.followers.length ? (
        <>
          <h2>Followers over time</h2>
          <table className="table">
            <thead>
              <tr>
                <th>Week of</th>
                <th className="num">Followers</th>
              </tr>
            </thead>
            <tbody>
              {dashboard.followers.map((f) => (
                <tr key={f.week}>
                  <td>{f.week}</td>
                  <td className="num">{f.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">Counts current followers by the week they followed (unfollows remove them).</p>
        </>
      ) : null}
    </Page>
  );
}

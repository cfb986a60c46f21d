import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { Pager } from "~/components/Pager";
import { displayName } from "~/lib/display-name";
import { formatNumber } from "~/lib/format-number";
import { pageCount } from "~/lib/paging";
import { seo } from "~/lib/seo";
import { ClubSearch, clubsOf, creationRefusal, listClubs } from "~/server/community/clubs.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Clubs · Grader", noindex: true });

// /clubs: every club, most members first, searched by name, description and markets; the viewer's own clubs on top.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { q, page } = ClubSearch.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, mine, refusal] = await Promise.all([listClubs(q, page), clubsOf(user.id), creationRefusal(user.id)]);
  return json({ q, list, mine, canCreate: refusal === null, refusal });
}

type Club = ReturnType<typeof useLoaderData<typeof loader>>["list"]["data"][number];

function ClubItem({ club, note }: { club: Club; note?: string }) {
  return (
    <li className="card club-item">
      <h3>
        <Link to={`/clubs/${club.slug}`}>{club.name}</Link>
      </h3>
      <p className="muted small">
        {`${formatNumber(club.member_count, 0)} member${club.member_count === 1 ? "" : "s"} · ${
          club.join_policy === "open" ? "Open" : "By request"
        }${club.min_tier ? ` · ${club.min_tier} or better` : ""} · by ${displayName(club.owner) || "a trader"}`}
        {note ? ` · ${note}` : ""}
      </p>
      {club.markets ? <p className="small">Markets: {club.markets}</p> : null}
      <p className="club-description">
        {club.description.length > 200 ? `${club.description.slice(0, 199)}…` : club.description}
      </p>
    </li>
  );
}

export default function Clubs() {
  const { q, list, mine, canCreate, refusal } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const pages = pageCount(list.meta.total, list.meta.page_size);
  return (
    <Page
      title="Clubs"
      lead="Trade talk with traders who share your markets. Members' grades are verified."
      actions={
        canCreate ? (
          <Link to="/clubs/new" className="btn btn-primary">
            Create a club
          </Link>
        ) : null
      }
    >
      {params.get("notice") === "deleted" ? (
        <p className="notice" role="status">
          The club was deleted, with its posts.
        </p>
      ) : null}
      {!canCreate ? <p className="muted small">{refusal}</p> : null}
      {mine.length ? (
        <section aria-labelledby="my-clubs">
          <h2 id="my-clubs">Your clubs</h2>
          <ul className="club-list">
            {mine.map((c) => (
              <ClubItem
                key={c.id}
                club={c}
                note={c.status === "pending" ? "request waiting" : c.role === "member" ? "member" : c.role}
              />
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="all-clubs">
        <h2 id="all-clubs">{q ? `Clubs matching “${q}”` : "All clubs"}</h2>
        <Form method="get" action="/clubs" role="search" className="club-search">
          <label htmlFor="club-q" className="visually-hidden">
            Search clubs
          </label>
          <input id="club-q" type="search" name="q" defaultValue={q} maxLength={100} placeholder="Name, market…" />
          <button type="submit" className="btn btn-ghost">
            Search
          </button>
        </Form>
        {list.data.length === 0 ? (
          <EmptyState
            title={q ? "No club matches" : "No clubs yet"}
            action={
              canCreate ? (
                <Link to="/clubs/new" className="btn btn-primary">
                  Create the first
                </Link>
              ) : null
            }
          >
            {q ? "Try another word, or clear the search." : "A Gold-or-better trader or a Star can start one."}
          </EmptyState>
        ) : (
          <ul className="club-list" data-testid="club-list">
            {list.data.map((c) => (
              <ClubItem key={c.id} club={c} />
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <Pager
            label="Club pages"
            page={list.meta.page}
            pages={pages}
            href={(p) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`}
          />
        ) : null}
      </section>
    </Page>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { TraderGrade } from "~/components/GradeBadge";
import { EmptyState, Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { normalizeKeyword, SEARCH_MIN_CHARS, searchTraders } from "~/server/community/search.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Search traders · Grader", noindex: true });

// The header search box's page when JavaScript is off (and its "see all results" view).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const keyword = normalizeKeyword(new URL(request.url).searchParams.get("keyword"));
  const tooShort = keyword.length < SEARCH_MIN_CHARS;
  return json({ keyword, tooShort, results: tooShort ? [] : await searchTraders(keyword) });
}

export default function Search() {
  const { keyword, tooShort, results } = useLoaderData<typeof loader>();
  return (
    <Page title="Search traders" narrow>
      <Form method="get" role="search" aria-label="Search again" className="stack">
        <label htmlFor="search-keyword">Name or username</label>
        <input id="search-keyword" name="keyword" type="search" defaultValue={keyword} minLength={3} />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </Form>
      {tooShort ? (
        keyword ? (
          <p className="muted">Type at least 3 characters.</p>
        ) : null
      ) : results.length === 0 ? (
        <EmptyState title={`No traders found for “${keyword}”`}>Try another name or username.</EmptyState>
      ) : (
        <section aria-label="Results">
          <h2>{results.length === 1 ? "1 trader" : `${results.length} traders`}</h2>
          <ul className="trader-list">
            {results.map((t) => (
              <li key={t.id}>
                <Link to={`/u/${t.id}`} className="trader-row">
                  <Avatar user={t} size={36} />
                  <span>
                    <strong>{displayName(t) || "Trader"}</strong>
                    {t.username ? <span className="muted small"> @{t.username}</span> : null}
                  </span>
                  <TraderGrade tier={t.tier} score={t.score} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}

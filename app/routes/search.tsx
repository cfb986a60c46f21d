import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Search traders · Grader", noindex: true });

// The header search box's page when JavaScript is off (and its "see all results" view).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const keyword = (new URL(request.url).searchParams.get("keyword") ?? "").trim().slice(0, 100);
  return json({ keyword, tooShort: keyword.length < 3 });
}

export default function Search() {
  const { keyword, tooShort } = useLoaderData<typeof loader>();
  return (
    <Page title="Search traders" narrow>
      <Form method="get" role="search" className="stack">
        <label htmlFor="search-keyword">Name or username</label>
        <input id="search-keyword" name="keyword" type="search" defaultValue={keyword} minLength={3} />
        <button type="submit" className="btn btn-primary">Search</button>
      </Form>
      {tooShort ? (
        <p className="muted">Type at least 3 characters.</p>
      ) : (
        <EmptyState title={`No traders found for “${keyword}”`}>Try another name or username.</EmptyState>
      )}
    </Page>
  );
}

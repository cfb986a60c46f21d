import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { formatScore } from "~/lib/format-number";
import { seo } from "~/lib/seo";
import { listStars } from "~/server/community/stars.server";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Stars · Grader",
    description: "Grader Stars: featured traders graded Gold or better, with verified track records.",
  });

export async function loader(_: LoaderFunctionArgs) {
  const stars = await listStars();
  return json({
    stars: stars.map((s) => ({
      username: s.username,
      name: displayName(s) || `Trader #${s.id}`,
      tier: s.tier,
      score: s.score,
      markets: s.markets,
      bio: s.bio.length > 160 ? `${s.bio.slice(0, 157)}…` : s.bio,
    })),
  });
}

export default function Stars() {
  const { stars } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Stars"
      lead="Featured traders graded Gold or better, with verified track records."
      actions={
        <Link to="/star-apply" className="btn btn-ghost">
          Apply to become a Star
        </Link>
      }
    >
      {stars.length ? (
        <ul className="grid plain" data-testid="stars">
          {stars.map((s) => (
            <li className="card" key={s.username ?? s.name}>
              <h2>
                {s.username ? <Link to={`/star-profile?u=${encodeURIComponent(s.username)}`}>{s.name}</Link> : s.name}
              </h2>
              <p>
                <strong>{s.tier ?? "Not graded"}</strong>
                {s.score !== null ? ` · score ${formatScore(s.score)}` : ""}
              </p>
              <p className="muted">{s.markets}</p>
              <p>{s.bio}</p>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          title="No Stars yet"
          action={
            <Link to="/star-apply" className="btn btn-ghost">
              Apply to become a Star
            </Link>
          }
        >
          Stars are traders graded Gold or better whose applications were approved.
        </EmptyState>
      )}
    </Page>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { formatScore } from "~/lib/format-number";
import { seo } from "~/lib/seo";
import { starByUsername } from "~/server/community/stars.server";

export const meta: MetaFunction<typeof loader> = (args) => {
  const star = args.data?.star;
  return seo(args, {
    title: star ? `${star.name} · Grader Star` : "Star profile · Grader",
    description: star
      ? `${star.name}, a Grader Star graded ${star.tier ?? ""}: ${star.bio.slice(0, 120)}`
      : "A Grader Star's public showcase: verified grade, track record and strategy.",
  });
};

// Public showcase of an approved Star: /star-profile?u=<username>.
export async function loader({ request }: LoaderFunctionArgs) {
  const username = (new URL(request.url).searchParams.get("u") ?? "").trim();
  const row = username ? await starByUsername(username) : undefined;
  if (!row) return json({ star: null, asked: Boolean(username) }, { status: username ? 404 : 200 });
  return json({
    star: {
      id: row.id,
      username: row.username,
      name: displayName(row) || `Trader #${row.id}`,
      bio: row.bio,
      strategy: row.strategy,
      markets: row.markets,
      tier: row.tier,
      score: row.score,
      verificationCode: row.verification_code,
      since: row.reviewed_at ? new Date(row.reviewed_at).toISOString().slice(0, 10) : null,
    },
    asked: true,
  });
}

export default function StarProfile() {
  const { star, asked } = useLoaderData<typeof loader>();
  if (!star) {
    return (
      <Page title="Star profile" lead="A Star's public showcase.">
        <EmptyState
          title={asked ? "No Star by that name" : "No Star selected"}
          action={
            <Link to="/stars" className="btn btn-ghost">
              Browse Stars
            </Link>
          }
        >
          Open a Star from the directory to see their showcase.
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page title={star.name} lead={`Grader Star${star.since ? ` since ${star.since}` : ""}`}>
      <section className="card" data-testid="star-profile">
        <p>
          Grade: <strong>{star.tier ?? "Not graded"}</strong>
          {star.score !== null ? ` · score ${formatScore(star.score)}` : ""}
          {star.verificationCode ? (
            <>
              {" "}
              · verification code <code>{star.verificationCode}</code>
            </>
          ) : null}
        </p>
        <h2>About</h2>
        <p>{star.bio}</p>
        <h2>Strategy</h2>
        <p style={{ whiteSpace: "pre-line" }}>{star.strategy}</p>
        <h2>Markets</h2>
        <p>{star.markets}</p>
      </section>
      <p>
        <Link to={`/u/${star.id}`} className="btn btn-primary">
          See full profile
        </Link>{" "}
        <Link to="/stars" className="btn btn-ghost">
          All Stars
        </Link>
      </p>
    </Page>
  );
}

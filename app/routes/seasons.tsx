import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GradeBadge } from "~/components/GradeBadge";
import { EmptyState, Page } from "~/components/Page";
import { TraderLink } from "~/components/TraderLink";
import { formatNumber, formatPercent } from "~/lib/format-number";
import { MIN_SEASON_ACTIVE_DAYS, SEASON_POINTS } from "~/lib/seasons";
import { seo } from "~/lib/seo";
import { TIERS, type Tier } from "~/lib/vocabulary";
import { seasonsOverview } from "~/server/community/seasons.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Seasons · Market · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await seasonsOverview(user.id));
}

const endDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

function Grade({ tier }: { tier: string | null }) {
  if (!tier || !(TIERS as readonly string[]).includes(tier)) return <>—</>;
  return <GradeBadge tier={tier as Tier} stars={TIERS.indexOf(tier as Tier) + 1} />;
}

export default function Seasons() {
  const { season, standings, me, past } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Seasons"
      lead="Each month the market leaderboard runs a season, ranked by risk-adjusted consistency from verified grades. The top ten win $GRADER points when it closes."
      actions={
        <Link to="/market/traders" className="btn btn-ghost btn-small">
          Leaderboard
        </Link>
      }
    >
      <section aria-labelledby="season-now">
        <h2 id="season-now">{season.label} season</h2>
        <p data-testid="season-end">
          Ends <time dateTime={season.endsAt}>{`${endDate(season.endsAt)}, 00:00 UTC`}</time>
          {` (${season.daysLeft === 1 ? "1 day" : `${season.daysLeft} days`} left). `}
          {`${formatNumber(season.ranked, 0)} trader${season.ranked === 1 ? "" : "s"} ranked so far.`}
        </p>
        <p className="muted" data-testid="season-me">
          {me
            ? `You are #${me.rank} with a score of ${formatNumber(me.score, 2)} over ${me.activeDays} active days.`
            : `You are not ranked yet: a verified grade made this month, with at least ${MIN_SEASON_ACTIVE_DAYS} active days in it, enters you.`}
        </p>
        {standings.length === 0 ? (
          <EmptyState
            title="No ranked traders yet this season"
            action={
              <Link to="/evaluate" className="btn btn-primary">
                Get your grade
              </Link>
            }
          >
            Traders enter the standings with a verified grade made this month and at least {MIN_SEASON_ACTIVE_DAYS}{" "}
            active days in the month.
          </EmptyState>
        ) : (
          <div className="paged-table">
            <table className="table" data-testid="season-standings">
              <caption className="visually-hidden">{season.label} standings</caption>
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>Trader</th>
                  <th>Grade</th>
                  <th className="num">Score</th>
                  <th className="num">Active days</th>
                  <th className="num">Return</th>
                  <th className="num">Prize</th>
                </tr>
              </thead>
              <tbody>
                {standings.map((s) => (
                  <tr key={s.userId} aria-current={me?.userId === s.userId ? "true" : undefined}>
                    <td className="num">{s.rank}</td>
                    <td>
                      <TraderLink trader={{ ...s, id: s.userId }} />
                    </td>
                    <td>
                      <Grade tier={s.tier} />
                    </td>
                    <td className="num">{formatNumber(s.score, 2)}</td>
                    <td className="num">{s.activeDays}</td>
                    <td className="num">{formatPercent(s.return)}</td>
                    <td className="num">{s.prize ? formatNumber(s.prize, 0) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <details className="card season-rules">
        <summary>How seasons work</summary>
        <p>
          A season is a calendar month in UTC. Your standing comes from your latest verified grade made in the month:
          demo grades, self-reported grades (from statements) and provisional grades do not count. The score is the
          Sharpe ratio of your daily returns on the month&rsquo;s active days (the days your record moved), annualised:
          steady gains score higher than the same gain in a few wild days. You need at least {MIN_SEASON_ACTIVE_DAYS}{" "}
          active days in the month. Ties go to more active days, then to the earlier account.
        </p>
        <p>
          When the month ends, the top ten with a positive score win points:{" "}
          {SEASON_POINTS.map((p, i) => `#${i + 1} ${formatNumber(p, 0)}`).join(", ")}. Winners are told in their
          notifications. Points are off-chain and have no monetary value.
        </p>
      </details>

      <section aria-labelledby="season-past">
        <h2 id="season-past">Past winners</h2>
        {past.length === 0 ? (
          <p className="muted">No season has closed yet. The first closes when this month ends.</p>
        ) : (
          past.map((p) => (
            <section key={p.month} id={`season-${p.month}`} data-testid={`season-${p.month}`}>
              <h3>{p.label}</h3>
              {p.winners.length === 0 ? (
                <p className="muted">No trader qualified this season.</p>
              ) : (
                <div className="paged-table">
                  <table className="table">
                    <caption className="visually-hidden">{p.label} winners</caption>
                    <thead>
                      <tr>
                        <th className="num">#</th>
                        <th>Trader</th>
                        <th>Grade</th>
                        <th className="num">Score</th>
                        <th className="num">Points</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.winners.map((w) => (
                        <tr key={w.userId}>
                          <td className="num">{w.rank}</td>
                          <td>
                            <TraderLink trader={{ ...w, id: w.userId }} />
                          </td>
                          <td>
                            <Grade tier={w.tier} />
                          </td>
                          <td className="num">{formatNumber(w.score, 2)}</td>
                          <td className="num">{formatNumber(w.points, 0)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          ))
        )}
      </section>
    </Page>
  );
}

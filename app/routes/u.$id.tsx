import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { GradeBadge } from "~/components/GradeBadge";
import type { TierName } from "~/content/landing";
import { currentGradeSummary } from "~/server/evaluation.server";
import { displayName } from "~/lib/display-name";
import { ensureFound, findPublicProfile, parseId } from "~/server/guards.server";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, { title: args.data ? `${displayName(args.data.trader) || "Trader"} · Grader` : "Trader · Grader", noindex: true });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const trader = ensureFound(await findPublicProfile(parseId(params.id)));
  return json({
    grade: await currentGradeSummary(trader.id),
    trader: { id: trader.id, username: trader.username, first_name: trader.first_name, last_name: trader.last_name, name: trader.name, avatar: trader.avatar_url },
  });
}

const tabs = ["posts", "replies", "stats", "holdings", "transactions", "history"] as const;

export default function TraderProfile() {
  const { trader, grade } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="profile-head">
        <Avatar user={trader} size={72} />
        <div>
          <h1>{displayName(trader) || "Trader"}</h1>
          {trader.username ? <p className="muted">@{trader.username}</p> : null}
          <p className="small">
            {grade?.tier ? <GradeBadge tier={grade.tier as TierName} stars={grade.stars} /> : <span className="muted">No grade yet</span>}
          </p>
        </div>
      </header>
      <nav className="tabs" aria-label="Trader">
        {tabs.map((t) => (
          <NavLink key={t} to={`/u/${trader.id}/${t}`} className={({ isActive }) => (isActive ? "active" : "")}>
            {t[0]!.toUpperCase() + t.slice(1)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

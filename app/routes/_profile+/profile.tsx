import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link, Outlet, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorPanel } from "~/components/RouteError";
import { Tabs } from "~/components/Tabs";
import { Avatar } from "~/components/Avatar";
import { SelfReportedTag } from "~/components/SelfReported";
import { GradeBadge } from "~/components/GradeBadge";
import type { Tier } from "~/lib/vocabulary";
import { currentGradeSummary } from "~/server/grades/evaluation.server";
import { embedSnippets } from "~/server/grades/badge.server";
import { EmbedSnippets } from "~/components/EmbedSnippets";
import { displayName } from "~/lib/display-name";
import { requireUser } from "~/server/http/session.server";
import { followCounts } from "~/server/community/follows.server";
import { formatCompact } from "~/lib/format-number";

export const meta: MetaFunction = (args) => seo(args, { title: "Profile · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const grade = await currentGradeSummary(user.id);
  return json({
    counts: await followCounts(user.id),
    grade,
    embed: grade ? embedSnippets(user.id) : null,
    user: {
      id: user.id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      name: user.name,
      avatar: user.avatar_url,
      email: user.email,
    },
  });
}

const tabs = [
  ["/profile/posts", "Posts"],
  ["/profile/replies", "Replies"],
  ["/profile/likes", "Likes"],
  ["/profile/following", "Following"],
  ["/profile/followers", "Followers"],
  ["/profile/stats", "Stats"],
  ["/profile/holdings", "Holdings"],
  ["/profile/history", "History"],
  ["/profile/account", "Account"],
] as const;

export default function Profile() {
  return (
    <ProfileLayout>
      <Outlet />
    </ProfileLayout>
  );
}

// A failing tab keeps the profile's header and tabs (when the profile itself loaded).
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/profile");
  return data ? (
    <ProfileLayout>
      <RouteErrorPanel />
    </ProfileLayout>
  ) : (
    <RouteErrorPanel />
  );
}

function ProfileLayout({ children }: { children: ReactNode }) {
  const { user, grade, counts, embed } = useRouteLoaderData<typeof loader>("routes/profile")!;
  const name = displayName(user) || user.email;
  return (
    <div className="page">
      <header className="profile-head">
        <Avatar user={user} size={72} />
        <div>
          <h1>{name}</h1>
          {user.username ? (
            <p className="muted">@{user.username}</p>
          ) : (
            <p className="muted">
              <Link to="/user-questions">Choose a username</Link>
            </p>
          )}
          <p className="small">
            {grade?.tier ? (
              <>
                <GradeBadge tier={grade.tier as Tier} stars={grade.stars} />
                {grade.selfReported ? (
                  <>
                    {" "}
                    <SelfReportedTag />
                  </>
                ) : null}
              </>
            ) : (
              <span className="muted">No grade yet</span>
            )}
          </p>
          {embed ? <EmbedSnippets userId={user.id} snippets={embed} /> : null}
          <p className="follow-row">
            <Link to="/profile/followers">
              <strong>{formatCompact(counts.followers)}</strong> {counts.followers === 1 ? "follower" : "followers"}
            </Link>
            <Link to="/profile/following">
              <strong>{formatCompact(counts.following)}</strong> following
            </Link>
          </p>
        </div>
        <Link to="/user/settings" className="btn btn-ghost" style={{ marginLeft: "auto" }}>
          Edit profile
        </Link>
      </header>
      <Tabs label="Profile" tabs={tabs} />
      {children}
    </div>
  );
}

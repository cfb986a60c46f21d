import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { displayName } from "~/lib/display-name";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = () => [{ title: "Profile · Grader" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ user: { id: user.id, username: user.username, first_name: user.first_name, last_name: user.last_name, name: user.name, avatar: user.avatar_url, email: user.email } });
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
  const { user } = useLoaderData<typeof loader>();
  const name = displayName(user) || user.email;
  return (
    <div className="page">
      <header className="profile-head">
        <Avatar user={user} size={72} />
        <div>
          <h1>{name}</h1>
          {user.username ? <p className="muted">@{user.username}</p> : <p className="muted"><Link to="/user-questions">Choose a username</Link></p>}
          <p className="muted small">No grade yet · 0 followers · 0 following</p>
        </div>
        <Link to="/user/settings" className="btn btn-ghost" style={{ marginLeft: "auto" }}>Edit profile</Link>
      </header>
      <nav className="tabs" aria-label="Profile">
        {tabs.map(([to, label]) => (
          <NavLink key={to} to={to} className={({ isActive }) => (isActive ? "active" : "")}>
            {label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

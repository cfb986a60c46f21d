import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { seo } from "~/lib/seo";
import { adminCounts, requireAdmin } from "~/server/admin.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Admin · Grader", noindex: true });

// The operators' area: reported posts, Star applications, users. Every loader and action of the
// area checks the role itself (Remix runs a child's loader and action without the layout's).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(await adminCounts());
}

export default function AdminLayout() {
  const counts = useLoaderData<typeof loader>();
  const tabs: [string, string][] = [
    ["/admin/reports", `Reports (${counts.openReports})`],
    ["/admin/stars", `Stars (${counts.pendingStars} pending)`],
    ["/admin/users", "Users"],
  ];
  return (
    <div className="page">
      <h1>Admin</h1>
      <nav className="tabs" aria-label="Admin">
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

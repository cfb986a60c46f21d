import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorPanel } from "~/components/RouteError";
import { Tabs } from "~/components/Tabs";
import { seo } from "~/lib/seo";
import { adminCounts, requireAdmin } from "~/server/accounts/admin.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Admin · Grader", noindex: true });

// The operators' area: reported posts, Star applications, users. Every loader and action of the
// area checks the role itself (Remix runs a child's loader and action without the layout's).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(await adminCounts());
}

export default function Admin() {
  return (
    <AdminLayout>
      <Outlet />
    </AdminLayout>
  );
}

// A failing tab keeps the area's tabs; a refused visitor (404) sees the plain not-found page.
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/admin");
  return data ? (
    <AdminLayout>
      <RouteErrorPanel />
    </AdminLayout>
  ) : (
    <RouteErrorPanel />
  );
}

function AdminLayout({ children }: { children: ReactNode }) {
  const counts = useRouteLoaderData<typeof loader>("routes/admin")!;
  const tabs: [string, string][] = [
    ["/admin/reports", `Reports (${counts.openReports})`],
    ["/admin/stars", `Stars (${counts.pendingStars} pending)`],
    ["/admin/users", "Users"],
  ];
  return (
    <div className="page">
      <h1>Admin</h1>
      <Tabs label="Admin" tabs={tabs} />
      {children}
    </div>
  );
}

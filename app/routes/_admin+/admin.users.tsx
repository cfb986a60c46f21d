import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { formDone, formError, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { listUsers, pageParam, requireAdmin, RoleInput, setAdminRole } from "~/server/accounts/admin.server";
import { readForm } from "~/server/http/guards.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Users · Admin · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const page = pageParam(url);
  const { users, more } = await listUsers(q, page);
  return json({
    q,
    page,
    more,
    users: users.map((u) => ({
      ...u,
      created_at: new Date(u.created_at).toISOString().slice(0, 10),
      verified: u.email_verified_at !== null,
    })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const parsed = parseForm(RoleInput, await readForm(request));
  if (!parsed.ok) return json(formError(Object.values(parsed.errors)[0] ?? "Check the form."), { status: 400 });
  const { user_id, role } = parsed.data;
  const result = await setAdminRole(admin.id, user_id, role === "grant");
  if (result === "self")
    return json(formError("You cannot revoke your own role; ask another admin or use npm run admin."), { status: 400 });
  if (result === "not_found") return json(formError("No such user."), { status: 404 });
  return json(
    formDone(role === "grant" ? `User ${user_id} is now an admin.` : `User ${user_id} is no longer an admin.`),
  );
}

export default function AdminUsers() {
  const { users, q, page, more } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const link = (p: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`;
  return (
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users</h2>
      <Form method="get" role="search" style={{ display: "flex", gap: "0.5rem", marginBottom: "1rem" }}>
        <label htmlFor="admin-q" className="visually-hidden">
          E-mail, username or name
        </label>
        <input
          id="admin-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="E-mail, username or name"
          style={{ flex: 1 }}
        />
        <button type="submit" className="btn btn-ghost">
          Search
        </button>
      </Form>
      {data?.notice ? (
        <p className="form-success" role="status">
          {data.notice}
        </p>
      ) : null}
      {data?.formError ? (
        <p className="form-error" role="alert">
          {data.formError}
        </p>
      ) : null}
      {users.length === 0 ? (
        <EmptyState title="No users match" />
      ) : (
        <div className="paged-table">
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">E-mail</th>
                <th scope="col">Username</th>
                <th scope="col">Name</th>
                <th scope="col">Grade</th>
                <th scope="col" className="num">
                  Followers
                </th>
                <th scope="col">Joined</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-user={u.id}>
                  <td className="num">{u.id}</td>
                  <td>
                    {u.email}
                    {u.verified ? "" : " (unverified)"}
                  </td>
                  <td>{u.username ? <Link to={`/u/${u.id}`}>@{u.username}</Link> : "—"}</td>
                  <td>{[u.first_name, u.last_name].filter(Boolean).join(" ") || "—"}</td>
                  <td>{u.tier ? `${u.tier}${u.demo ? " (demo)" : ""}` : "—"}</td>
                  <td className="num">{u.followers_count}</td>
                  <td>{u.created_at}</td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="user_id" value={u.id} />
                      {u.is_admin ? (
                        <button type="submit" name="role" value="revoke" className="btn btn-ghost small">
                          Admin · revoke
                        </button>
                      ) : (
                        <button type="submit" name="role" value="grant" className="btn btn-ghost small">
                          Make admin
                        </button>
                      )}
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page > 1 || more ? (
        <nav className="pager" aria-label="User pages">
          {page > 1 ? <Link to={link(page - 1)}>Previous</Link> : <span />}
          {more ? <Link to={link(page + 1)}>Next</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

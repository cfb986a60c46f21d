import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, readQuery, requireApiUser } from "~/server/http/api.server";
import { CLUBS_QUERY, clubsOf, listClubs } from "~/server/community/clubs.server";

// GET /api/portal/clubs — trader clubs as /clubs lists them (most members first, `q` searches
// name, description and markets), each with the caller's place in it (docs/API.md).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const query = readQuery(request, CLUBS_QUERY);
  const [list, mine] = await Promise.all([listClubs(query.q ?? "", query.page), clubsOf(user.id)]);
  const place = new Map(mine.map((c) => [c.id, { role: c.role, status: c.status as "active" | "pending" }]));
  return apiData(
    list.data.map((c) => ({
      id: c.id,
      slug: c.slug,
      name: c.name,
      description: c.description,
      markets: c.markets,
      min_tier: c.min_tier,
      join_policy: c.join_policy,
      member_count: c.member_count,
      created_at: c.created_at,
      owner: {
        id: c.owner.id,
        username: c.owner.username,
        first_name: c.owner.first_name,
        last_name: c.owner.last_name,
        name: c.owner.name,
        avatar: c.owner.avatar,
      },
      membership: place.get(c.id) ?? null,
    })),
    { meta: list.meta, headers: { "Cache-Control": "no-store" } },
  );
}

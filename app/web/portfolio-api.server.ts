import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readQuery, requireApiUser } from "~/server/http/api.server";
import { PortfolioOwnerQuery } from "~/server/http/api-schemas.server";
import { findPublicProfile } from "~/server/http/guards.server";
import type { holdingsFor, tradesFor } from "./portfolio-routes.server";

/**
 * GET /api/portal/{trades,holdings}?user_id=&page=&page_size=&sort_by=&order= →
 * { data: [...], meta: { page, page_size, total } }. Another user's amounts are hidden unless
 * they chose to show them.
 */
export function portfolioApiLoader(list: typeof tradesFor | typeof holdingsFor) {
  return async function loader({ request }: LoaderFunctionArgs) {
    const viewer = await requireApiUser(request);
    const ownerId = readQuery(request, PortfolioOwnerQuery).user_id ?? viewer.id;
    if (ownerId !== viewer.id && !(await findPublicProfile(ownerId))) return apiError(404, "No such trader.");
    const { data, meta } = await list(request, ownerId, viewer.id, "api");
    return apiData(data, { meta });
  };
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/server/http/api.server";
import { toPublicUser } from "~/server/accounts/users.server";

// GET /api/user/info — the caller's user record (PRODUCT §3 fields). One indexed lookup.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(toPublicUser(user), { headers: { "Cache-Control": "private, no-store" } });
}

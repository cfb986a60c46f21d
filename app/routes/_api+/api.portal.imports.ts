import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/server/http/api.server";
import { listImports } from "~/server/linking/linking.server";

// GET /api/portal/imports — the caller's imports, newest first, with their progress (docs/API.md).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(await listImports(user.id), { headers: { "Cache-Control": "no-store" } });
}

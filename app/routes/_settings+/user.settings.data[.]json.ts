import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportUserData } from "~/server/accounts/own-data.server";
import { requireUser } from "~/server/http/session.server";

// "Download my data": the signed-in user's own data as one JSON file.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const data = await exportUserData(user.id);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="grader-data-${user.id}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { parseId } from "~/server/guards.server";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Reply · Grader", noindex: true });

// Posts arrive with the community feature; until then no id exists.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  parseId(params.id);
  throw new Response("Not Found", { status: 404 });
}

export default function Route() {
  return null;
}

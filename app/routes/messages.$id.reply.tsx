import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { parseId } from "~/server/guards.server";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Conversation · Grader", noindex: true });

// Only the two participants may see a conversation; until messaging exists there are none, so
// every id is a 404 (never someone else's content).
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  parseId(params.id);
  throw new Response("Not Found", { status: 404 });
}

export default function Route() {
  return null;
}

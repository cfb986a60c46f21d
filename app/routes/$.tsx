import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = (args) => seo(args, { title: "Nothing to see here! · Grader", noindex: true });

// Any path not in the route table: 404 with "Nothing to see here!" (rendered by the root boundary).
export async function loader(_: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404 });
}

export default function CatchAll() {
  return null;
}

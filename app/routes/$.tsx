import type { LoaderFunctionArgs } from "@remix-run/node";

// Any path not in the route table: 404 with "Nothing to see here!", page and title both from the
// root's boundary (RouteErrorPanel, errorTitle).
export async function loader(_: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404 });
}

export default function CatchAll() {
  return null;
}

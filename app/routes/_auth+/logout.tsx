import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySession } from "~/server/http/session.server";

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/signin", { headers: { "Set-Cookie": await destroySession(request) } });
}

export async function loader() {
  return redirect("/");
}

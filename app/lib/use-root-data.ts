import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "~/root";

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/** START NOW: a logged-in user with an id goes to /portal/dashboard, anyone else to /signup. */
export function useStartHref() {
  return useRootData()?.user?.id ? "/portal/dashboard" : "/signup";
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { DesktopLanding } from "~/components/landing/Landing";
import { useRootData, useStartHref } from "~/lib/use-root-data";
import { redirectIfSignedIn } from "~/server/http/auth.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Grader — Grade Your Trade, Share Your Success" });

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export default function LandingPage() {
  const root = useRootData();
  return <DesktopLanding startHref={useStartHref()} supportEmail={root?.ENV.SUPPORT_EMAIL ?? ""} />;
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { DesktopLanding, MobileLanding } from "~/components/landing/Landing";
import { useDevice } from "~/lib/device";
import { useRootData, useStartHref } from "~/lib/use-root-data";
import { redirectIfSignedIn } from "~/server/http/auth.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Grader — Grade Your Trade, Share Your Success" });

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export default function Index() {
  const { isMobile } = useDevice();
  const root = useRootData();
  const props = { startHref: useStartHref(), supportEmail: root?.ENV.SUPPORT_EMAIL ?? "" };
  return isMobile ? <MobileLanding {...props} /> : <DesktopLanding {...props} />;
}

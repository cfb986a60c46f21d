import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { seo } from "~/lib/seo";
import { DesktopLanding, MobileLanding } from "~/components/landing/Landing";
import { useDevice } from "~/lib/device";
import { useRootData, useStartHref } from "~/lib/use-root-data";
import { redirectIfSignedIn } from "~/server/http/auth.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Grader — Grade Your Trade, Share Your Success" });

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  // Where deleting an account ends (settings → Delete my account): the visitor is told it happened.
  return json({ deleted: new URL(request.url).searchParams.get("account") === "deleted" });
}

const ACCOUNT_DELETED_MESSAGE =
  "Your account was deleted: its profile, linked accounts, trades, grades and cards are gone, and you are signed out.";

export default function Index() {
  const { deleted } = useLoaderData<typeof loader>();
  const { isMobile } = useDevice();
  const root = useRootData();
  const props = { startHref: useStartHref(), supportEmail: root?.ENV.SUPPORT_EMAIL ?? "" };
  return (
    <>
      {deleted ? (
        <div className="page narrow">
          <p className="form-success" role="status">
            {ACCOUNT_DELETED_MESSAGE}
          </p>
        </div>
      ) : null}
      {isMobile ? <MobileLanding {...props} /> : <DesktopLanding {...props} />}
    </>
  );
}

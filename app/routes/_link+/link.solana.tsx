import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { WalletLinkPage } from "~/components/WalletLinkPage";
import { seo } from "~/lib/seo";
import { requireUser } from "~/server/http/session.server";
import { isSimulated } from "~/server/platform/demo.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Link a Phantom wallet · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({ demo: isSimulated("solana") });
}

export default function LinkWallet() {
  const { demo } = useLoaderData<typeof loader>();
  return <WalletLinkPage chain="solana" demo={demo} />;
}

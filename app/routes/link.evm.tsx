import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Page } from "~/components/Page";
import { walletsAllowed } from "~/lib/device-class";
import { useDevice } from "~/lib/device";
import { seo } from "~/lib/seo";
import { useWalletLinkFlow } from "~/lib/wallet-client";
import { requireUser } from "~/server/session.server";
import { isWalletDemo } from "~/sources/wallet-link.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Link a MetaMask wallet · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({ demo: isWalletDemo("evm") });
}

export default function LinkEvmWallet() {
  const { demo } = useLoaderData<typeof loader>();
  const { device } = useDevice();
  const allowed = walletsAllowed(device);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { state, start } = useWalletLinkFlow("evm");
  const working = state.status === "working" || state.status === "done";
  return (
    <Page title="Link a MetaMask wallet" lead="Grade your on-chain trades: we read your wallet's swaps from the blockchain." narrow>
      <section className="card wallet-link">
        <h2>Prove the wallet is yours</h2>
        <p>
          When you connect, we ask MetaMask to sign a one-time &ldquo;Sign-In with Ethereum&rdquo; message for this site. The signature proves you hold
          the wallet&rsquo;s key. Signing is free, sends no transaction and gives us no access to your funds; the message expires after 10 minutes and
          works only once.
        </p>
        <p className="muted">
          We then import your swaps (ERC-20 trades, valued in US dollars through stablecoins) from a public blockchain explorer.
          {demo ? " Demo data: no explorer is configured on this server, so the history comes from a simulator." : ""}
        </p>
        <noscript>
          <p className="form-error">Linking a wallet needs JavaScript: the signature can only be made by the MetaMask extension in your browser. Turn JavaScript on and reload this page.</p>
        </noscript>
        {allowed ? null : <p className="form-error" role="status">Desktop only: wallets can be linked from a desktop browser with the MetaMask extension.</p>}
        <p>
          <button type="button" className="btn btn-primary" onClick={start} disabled={!hydrated || !allowed || working} aria-busy={working}>
            {working ? "Waiting for MetaMask…" : "Connect MetaMask"}
          </button>{" "}
          {allowed ? null : <span className="tag">Desktop only</span>}
        </p>
        <div aria-live="polite">
          {state.detail ? <p className={state.status === "no-wallet" ? "muted" : "form-error"} data-testid="wallet-status">{state.detail}</p> : null}
        </div>
        <p className="muted">
          Using Phantom instead? <Link to="/link/solana">Link a Solana wallet</Link>.
        </p>
      </section>
    </Page>
  );
}

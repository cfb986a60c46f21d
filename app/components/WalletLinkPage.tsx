import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { walletsAllowed } from "~/lib/device-class";
import { useDevice } from "~/lib/device";
import { hasWalletExtension, useWalletLinkFlow } from "~/lib/wallet-client";
import { Page } from "./Page";

const COPY = {
  evm: {
    wallet: "MetaMask",
    message: "Sign-In with Ethereum",
    history: "ERC-20 trades, valued in US dollars through stablecoins) from a public blockchain explorer.",
    demo: " Demo data: no explorer is configured on this server, so the history comes from a simulator.",
    other: { text: "Using Phantom instead?", to: "/link/solana", label: "Link a Solana wallet" },
  },
  solana: {
    wallet: "Phantom",
    message: "Sign In With Solana",
    history: "SPL token trades, valued in US dollars through USDC and USDT) from a Solana RPC node.",
    demo: " Demo data: no Solana RPC node is configured on this server, so the history comes from a simulator.",
    other: { text: "Using MetaMask instead?", to: "/link/evm", label: "Link an Ethereum wallet" },
  },
} as const;

/**
 * /link/evm and /link/solana: the signature proof needs the wallet extension, so JavaScript. In demo
 * mode, without an extension, a demo wallet (a key made in the browser) signs the same message.
 */
export function WalletLinkPage({ chain, demo }: { chain: "evm" | "solana"; demo: boolean }) {
  const c = COPY[chain];
  const { device } = useDevice();
  const allowed = walletsAllowed(device);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { state, start, startDemo } = useWalletLinkFlow(chain);
  // null until known; only looked for in demo mode (a real deployment never offers the demo wallet).
  const [extension, setExtension] = useState<boolean | null>(null);
  useEffect(() => {
    if (demo) void hasWalletExtension(chain).then(setExtension);
  }, [demo, chain]);
  const working = state.status === "working" || state.status === "done";
  return (
    <Page
      title={`Link a ${c.wallet} wallet`}
      lead="Grade your on-chain trades: we read your wallet's swaps from the blockchain."
      narrow
    >
      <section className="card wallet-link">
        <h2>Prove the wallet is yours</h2>
        <p>
          When you connect, we ask {c.wallet} to sign a one-time &ldquo;{c.message}&rdquo; message for this site. The
          signature proves you hold the wallet&rsquo;s key. Signing is free, sends no transaction and gives us no access
          to your funds; the message expires after 10 minutes and works only once.
        </p>
        <p className="muted">
          We then import your swaps ({c.history}
          {demo ? c.demo : ""}
        </p>
        <noscript>
          <p className="form-error">{`Linking a wallet needs JavaScript: the signature can only be made by the ${c.wallet} extension in your browser${demo ? " (or, on this demo server, by a demo wallet in your browser)" : ""}. Turn JavaScript on and reload this page.`}</p>
        </noscript>
        {allowed ? null : (
          <p
            className="form-error"
            role="status"
          >{`Desktop only: wallets can be linked from a desktop browser with the ${c.wallet} extension.`}</p>
        )}
        <p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={start}
            disabled={!hydrated || !allowed || working}
            aria-busy={working}
          >
            {working ? `Waiting for ${c.wallet}…` : `Connect ${c.wallet}`}
          </button>{" "}
          {allowed ? null : <span className="tag">Desktop only</span>}
        </p>
        {demo && extension === false ? (
          <p data-testid="demo-wallet">
            <button type="button" className="btn" onClick={startDemo} disabled={!allowed || working}>
              Use a demo wallet
            </button>{" "}
            <span className="muted">{`No ${c.wallet} here? A throwaway key made in this browser signs the same message, and the history comes from the simulator.`}</span>
          </p>
        ) : null}
        <div aria-live="polite">
          {state.detail ? (
            <p className={state.status === "no-wallet" ? "muted" : "form-error"} data-testid="wallet-status">
              {state.detail}
            </p>
          ) : null}
        </div>
        <p className="muted">
          {c.other.text} <Link to={c.other.to}>{c.other.label}</Link>.
        </p>
      </section>
    </Page>
  );
}

import { Form, Link } from "@remix-run/react";
import { useDevice } from "~/lib/device";
import { walletsAllowed } from "~/lib/device-class";

/** PRODUCT §2's three ways to connect: Broker, MetaMask Wallet, Phantom Wallet (wallets desktop only). */
export function ConnectOptions() {
  const { device } = useDevice();
  const wallets = walletsAllowed(device);
  return (
    <ul className="connect-options">
      <li>
        <Form method="post" action="/link/plaid">
          <button type="submit" className="btn btn-ghost btn-wrap connect-option">
            Broker <span className="muted small">through Plaid</span>
          </button>
        </Form>
      </li>
      {(
        [
          ["/link/evm", "MetaMask Wallet"],
          ["/link/solana", "Phantom Wallet"],
        ] as const
      ).map(([to, label]) => (
        <li key={to}>
          {wallets ? (
            <Link to={to} className="btn btn-ghost btn-wrap connect-option">
              {label}
            </Link>
          ) : (
            <span className="btn btn-ghost btn-wrap connect-option" aria-disabled="true">
              {label} <span className="tag">Desktop only</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

import { Form, Link } from "@remix-run/react";
import { ACCOUNT_KIND_VIEWS, LINK_OPTIONS } from "~/lib/account-kinds";
import { useDevice } from "~/lib/device";
import { walletsAllowed } from "~/lib/device-class";

/** PRODUCT §2's ways to connect, one per kind of account (wallets desktop only). */
export function ConnectOptions() {
  const { device } = useDevice();
  const desktop = walletsAllowed(device);
  return (
    <ul className="connect-options">
      {LINK_OPTIONS.map((kind) => {
        const view = ACCOUNT_KIND_VIEWS[kind];
        const label = (
          <>
            {view.connect.label}
            {view.connect.note ? (
              <>
                {" "}
                <span className="muted small">{view.connect.note}</span>
              </>
            ) : null}
          </>
        );
        return (
          <li key={kind}>
            {view.desktopOnly && !desktop ? (
              <span className="btn btn-ghost btn-wrap connect-option" aria-disabled="true">
                {label} <span className="tag">Desktop only</span>
              </span>
            ) : view.link.method === "post" ? (
              <Form method="post" action={view.link.path}>
                <button type="submit" className="btn btn-ghost btn-wrap connect-option">
                  {label}
                </button>
              </Form>
            ) : (
              <Link to={view.link.path} className="btn btn-ghost btn-wrap connect-option">
                {label}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}

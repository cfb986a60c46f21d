import { Link } from "@remix-run/react";
import { displayName, type NameFields } from "~/lib/display-name";
import { Avatar } from "./Avatar";

/** A trader in a list: avatar, display name (PRODUCT §3) and @username, linking to /u/:id. */
export function TraderLink({ trader }: { trader: NameFields & { id: number; avatar?: string | null } }) {
  return (
    <Link to={`/u/${trader.id}`} className="trader-row">
      <Avatar user={trader} size={28} />
      <span>
        {displayName(trader) || "Trader"}
        {trader.username ? <span className="muted small"> @{trader.username}</span> : null}
      </span>
    </Link>
  );
}

import { Link, useLocation } from "@remix-run/react";
import { timeAgo } from "~/lib/time-ago";

type Message = { id: string | number; body: string; created_at: string; mine: boolean };

/**
 * A page of a conversation's messages, oldest first; `name` is the other person's (read out for
 * screen readers). `older` is the cursor of the page before this one; `paged` is true when this is
 * not the newest page. "Seen" shows under my last message when it is the newest and was read.
 */
export function MessageList({
  messages,
  name,
  now,
  older,
  paged,
  seenUpTo = null,
}: {
  messages: Message[];
  name: string;
  now: number;
  older: string | null;
  paged: boolean;
  /** The id up to which the other person has read: "Seen" under the last of mine they read. */
  seenUpTo?: string | null;
}) {
  const { pathname } = useLocation();
  const lastMine = [...messages].reverse().find((m) => m.mine);
  const seen =
    lastMine &&
    seenUpTo !== null &&
    messages[messages.length - 1] === lastMine &&
    BigInt(lastMine.id) <= BigInt(seenUpTo)
      ? lastMine.id
      : null;
  return (
    <>
      {older || paged ? (
        <nav className="pager" aria-label="Message pages">
          {older ? (
            <Link to={`${pathname}?before=${older}`} rel="prev">
              ← Older messages
            </Link>
          ) : (
            <span />
          )}
          {paged ? <Link to={pathname}>Newest messages</Link> : <span />}
        </nav>
      ) : null}
      <ol className="message-list" aria-label="Messages">
        {messages.map((m) => (
          <li key={m.id} className={m.mine ? "message mine" : "message"}>
            <span className="visually-hidden">{m.mine ? "You" : name}: </span>
            {m.body}
            <br />
            <time className="muted small" dateTime={m.created_at}>
              {timeAgo(m.created_at, now)}
            </time>
            {m.id === seen ? (
              <span className="muted small" data-testid="seen">
                {" "}
                · Seen
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}

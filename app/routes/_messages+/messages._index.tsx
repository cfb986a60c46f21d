import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { EmptyState, Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { useLiveRevalidate } from "~/lib/live";
import { formatCompact } from "~/lib/format-number";
import { parsePage } from "~/lib/paging";
import { timeAgo } from "~/lib/time-ago";
import { inbox } from "~/server/community/messages.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Messages · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = parsePage(new URL(request.url).searchParams);
  return json({ ...(await inbox(user.id, page)), page, now: Date.now() });
}

export default function Route() {
  const { conversations, more, page, now } = useLoaderData<typeof loader>();
  // A new message or request reorders the list live (the first page: later pages stay still).
  useLiveRevalidate((m) => m.kind === "message", page === 1);
  const requests = conversations.filter((c) => c.incoming_request);
  const others = conversations.filter((c) => !c.incoming_request);
  const row = (c: (typeof conversations)[number]) => {
    const href = c.incoming_request ? `/messages/${c.id}/request` : `/messages/${c.id}/reply`;
    return (
      <li key={c.id} className={c.unread ? "conversation unread" : "conversation"}>
        <Link to={href} className="trader-row">
          <Avatar user={c.other} size={36} />
          <span>
            <strong>{displayName(c.other) || "Trader"}</strong>
            {c.other.username ? <span className="muted small"> @{c.other.username}</span> : null}
            {c.unread ? <span className="badge"> {formatCompact(c.unread)} unread</span> : null}
            {c.status === "request" && c.started_by_me ? <span className="muted small"> · request sent</span> : null}
            {c.status === "declined" ? <span className="muted small"> · declined</span> : null}
            <br />
            <span className="muted small">
              {c.last_message ? `${c.last_message.mine ? "You: " : ""}${c.last_message.body.slice(0, 120)}` : ""}
              {c.last_message ? ` · ${timeAgo(c.last_message.created_at, now)}` : ""}
            </span>
          </span>
        </Link>
      </li>
    );
  };
  return (
    <Page title="Messages" lead="Direct conversations with other traders.">
      {conversations.length === 0 && page > 1 ? (
        <EmptyState title="No older conversations" action={<Link to="/messages">Back to the newest</Link>} />
      ) : conversations.length === 0 ? (
        <EmptyState
          title="No conversations yet"
          action={
            <Link to="/market/traders" className="btn btn-ghost">
              Find traders
            </Link>
          }
        >
          Start a conversation from a trader's profile. Messages from people you don't follow arrive as requests you can
          accept or decline.
        </EmptyState>
      ) : (
        <>
          {requests.length ? (
            <section aria-label="Message requests">
              <h2>Requests</h2>
              <ul className="trader-list">{requests.map(row)}</ul>
            </section>
          ) : null}
          <section aria-label="Conversations">
            <h2>Conversations</h2>
            {others.length ? (
              <ul className="trader-list">{others.map(row)}</ul>
            ) : (
              <p className="muted">No conversations yet.</p>
            )}
          </section>
          {page > 1 || more ? (
            <nav className="pager" aria-label="Conversation pages">
              {page > 1 ? <Link to={page === 2 ? "/messages" : `/messages?page=${page - 1}`}>← Newer</Link> : <span />}
              {more ? (
                <Link to={`/messages?page=${page + 1}`} rel="next">
                  Older conversations →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </>
      )}
    </Page>
  );
}

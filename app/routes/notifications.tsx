import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { EmptyState, Page } from "~/components/Page";
import { Pager } from "~/components/Pager";
import { useLiveRevalidate } from "~/lib/live";
import { pageCount, parsePage } from "~/lib/paging";
import { seo } from "~/lib/seo";
import { timeAgo } from "~/lib/time-ago";
import { readForm } from "~/server/http/guards.server";
import { formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { listNotifications, markAllRead, markRead } from "~/server/community/notifications.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Notifications · Grader", noindex: true });

const PAGE_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = parsePage(new URL(request.url).searchParams);
  const { data, meta } = await listNotifications(user.id, { page, page_size: PAGE_SIZE });
  return json({ notifications: data, meta, now: Date.now() }, { headers: { "Cache-Control": "no-store" } });
}

// The page to go back to: absent is the first; anything but a page in range is the first too (below).
const page = z
  .string()
  .optional()
  .transform((v) => Number(v ?? 1));
const NotificationsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read-all"), page }),
  z.object({ intent: z.enum(["open", "read"]), page, id: formText }),
]);

// open: mark read and go where it leads (the link is the stored one, never the form's);
// read: mark read and stay; read-all: every unread one. A notification not the caller's is 404.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(NotificationsForm, await readForm(request));
  if (!parsed.ok) return json(formError("Unknown action."), { status: 400 });
  const form = parsed.data;
  const page = form.page;
  const back = Number.isInteger(page) && page > 1 && page <= 10_000 ? `/notifications?page=${page}` : "/notifications";
  if (form.intent === "read-all") {
    await markAllRead(user.id);
    return redirect(back, 303);
  }
  const url = await markRead(user.id, form.id);
  if (!url) throw new Response("Not Found", { status: 404 });
  return redirect(form.intent === "open" ? url : back, 303);
}

export default function Notifications() {
  const { notifications, meta, now } = useLoaderData<typeof loader>();
  // A new notification (or some read in another tab) shows at once.
  useLiveRevalidate((m) => m.kind === "unread");
  const busy = useNavigation().state !== "idle";
  const pages = pageCount(meta.total, meta.page_size);
  return (
    <Page
      title="Notifications"
      lead={meta.unread ? `${meta.unread} unread` : "You're all caught up."}
      actions={
        meta.unread ? (
          <Form method="post">
            <input type="hidden" name="page" value={meta.page} />
            <button type="submit" name="intent" value="read-all" className="btn btn-ghost" disabled={busy}>
              Mark all as read
            </button>
          </Form>
        ) : null
      }
    >
      {notifications.length === 0 ? (
        <EmptyState
          title={meta.page > 1 ? "Nothing on this page" : "No notifications yet"}
          action={<Link to="/user/settings/notifications">Notification settings</Link>}
        >
          Messages, follows, likes, replies, mentions, grade changes of traders you follow and finished imports show up
          here.
        </EmptyState>
      ) : (
        <ul className="notification-list">
          {notifications.map((n) => (
            <li key={n.id} className={n.read ? "notification" : "notification unread"} data-kind={n.kind}>
              {n.actor ? <Avatar user={n.actor} size={36} /> : <span className="notification-dot" aria-hidden="true" />}
              <Form method="post" className="notification-open">
                <input type="hidden" name="id" value={n.id} />
                <button type="submit" name="intent" value="open" className="link-button">
                  {n.read ? null : <span className="visually-hidden">Unread: </span>}
                  {n.text}
                </button>
                <span className="muted small"> · {timeAgo(n.created_at, now)}</span>
                {typeof n.data.excerpt === "string" ? (
                  <span className="muted small notification-excerpt">“{n.data.excerpt}”</span>
                ) : null}
              </Form>
              {n.read ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={n.id} />
                  <input type="hidden" name="page" value={meta.page} />
                  <button
                    type="submit"
                    name="intent"
                    value="read"
                    className="btn btn-ghost btn-small"
                    aria-label={`Mark as read: ${n.text}`}
                    disabled={busy}
                  >
                    Mark read
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <Pager
          label="Notification pages"
          page={meta.page}
          pages={pages}
          total={meta.total}
          href={(p) => (p === 1 ? "/notifications" : `/notifications?page=${p}`)}
        />
      ) : null}
      <p className="muted small">
        <Link to="/user/settings/notifications">Choose what you're told about, and e-mail summaries</Link>
      </p>
    </Page>
  );
}

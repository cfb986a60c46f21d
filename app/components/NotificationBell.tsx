import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
// Not from ~/lib/notifications: that module carries the settings form's zod schema, which the
// header (on every page, the landing included) must not load.
import { badgeCount } from "~/lib/format-number";
import { useLive, useLiveConnected } from "~/lib/live";
import { tradeAlertText } from "~/lib/trade-alert-text";
import { usePolling } from "~/lib/use-polling";
import { notify } from "./Toaster";

export const BELL_POLL_MS = 15_000;

/**
 * The header's bell: a plain link to /notifications with the unread count from the page's data;
 * with JavaScript the count follows the live channel, and is asked from the API every 15 s while
 * the page is visible only when the stream is not connected. A live trade alert also shows as a toast.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const fetcher = useFetcher<{ meta?: { unread?: number } }>();
  const [count, setCount] = useState(unread);
  // The newer of the two wins: the page's data after a navigation, the poll's answer in between.
  useEffect(() => setCount(unread), [unread]);
  useEffect(() => {
    const polled = fetcher.data?.meta?.unread;
    if (typeof polled === "number") setCount(polled);
  }, [fetcher.data]);
  const live = useLiveConnected();
  useLive((message) => {
    if (message.kind === "unread") setCount(message.data.notifications);
    else if (message.kind === "ready") setCount(message.data.unread.notifications);
    // A live trade alert shows as a toast too, in the bell's words, leading where the bell does.
    else if (message.kind === "trade_alert") {
      const a = message.data;
      notify.link(
        tradeAlertText(a.trader_name || "A trader", { ...a }),
        `/u/${a.trader_id}/transactions`,
        `trade_alert:${a.alert_id}`,
      );
    }
  });
  usePolling(
    () => {
      if (fetcher.state === "idle") fetcher.load("/api/portal/notifications?page_size=1");
    },
    BELL_POLL_MS,
    !live,
  );
  return (
    <Link
      to="/notifications"
      className="btn btn-ghost header-icon bell"
      aria-label={count ? `Notifications, ${count} unread` : "Notifications"}
    >
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M6 17V11a6 6 0 0 1 12 0v6l1.5 2h-15z"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="M10 21a2 2 0 0 0 4 0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {count ? (
        <span className="bell-count" aria-hidden="true" data-testid="bell-count">
          {badgeCount(count)}
        </span>
      ) : null}
    </Link>
  );
}

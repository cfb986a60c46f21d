/**
 * The live channel's events (GET /api/portal/events, docs/API.md "Live events"): what the server
 * writes and the client reads, one type per kind. Each arrives as an SSE event named by its kind,
 * its data the JSON below, its id the user's event number (Last-Event-ID on a reconnect).
 */
export type LiveEventMap = {
  /** A new message in one of the user's conversations (also to the sender's other tabs). */
  message: { conversation_id: number; message_id: string; mine: boolean; request: boolean };
  /** The other person read the conversation up to `last_read_id` (the "Seen" receipt). */
  read: { conversation_id: number; last_read_id: string };
  /** Unread counts changed: a notification arrived, or some were read. */
  unread: { notifications: number };
  /** An import's progress (the account page's progress bar). */
  import: { import_id: number; state: string; fetched: number; total: number | null };
  /**
   * A live trade alert (issue 34 point 3, DECISIONS 215): a trader the user subscribes to traded,
   * told no earlier than the trader's delay. `share` is the trade's value over the portfolio's
   * (0–1, null when unknown); `quantity` only when the trader shows sizes; never a sum of money.
   * `tier` is the trader's verified tier (null for none or a self-reported grade).
   */
  trade_alert: {
    alert_id: string;
    trader_id: number;
    symbol: string;
    side: "buy" | "sell";
    tier: string | null;
    share: number | null;
    quantity: number | null;
    traded_at: string;
    /** The trader's display name, for the toast (the bell's words). */
    trader_name: string;
  };
  /**
   * Something changed on a club the user is in (issue 34 point 4, DECISIONS 217): its feed (a
   * post, reply, like, deletion or hidden post), its people (a join, request, approval, removal,
   * role, owner) or its members' trade alerts. Carries no content: the club page reloads its data.
   */
  club: { club_id: number; what: ClubChange };
};

/** What part of a club changed (the `club` event). */
export type ClubChange = "feed" | "members" | "alerts";

export type LiveKind = keyof LiveEventMap;
export const LIVE_KINDS = [
  "message",
  "read",
  "unread",
  "import",
  "trade_alert",
  "club",
] as const satisfies readonly LiveKind[];

/** A live event for one user, as raised by a service. */
export type LiveEvent = { [K in LiveKind]: { kind: K; data: LiveEventMap[K] } }[LiveKind];

/**
 * Sent first on every stream (not stored, no replay): `unread` as the stream starts; `reset` true
 * when the Last-Event-ID sent is older than the replay window, so the page reloads its data.
 */
export type LiveReady = { unread: { notifications: number }; reset: boolean };
